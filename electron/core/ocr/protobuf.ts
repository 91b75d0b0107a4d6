/**
 * The least of the protobuf wire format the OCR graph rewrite needs (graph.ts): a message read as its list of
 * fields, each keeping its bytes exactly as read, so a message written back unchanged is the same bytes, and
 * only the fields a rewrite touches are encoded anew. No schema: callers name fields by number.
 */

/** Wire types: varint, 64-bit, length-delimited, 32-bit (groups, 3 and 4, are not used by ONNX). */
export type WireType = 0 | 1 | 2 | 5;

/** One field: its number, wire type and value bytes (a varint's own bytes; a length-delimited field's payload). */
export interface Field {
  no: number;
  wire: WireType;
  raw: Uint8Array;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

/** The varint at `pos`: its value (exact below 2^53) and where it ends. */
function readVarint(buf: Uint8Array, pos: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (pos >= buf.length) throw new Error('protobuf: a varint runs past the end of the message');
    const byte = buf[pos++]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return [value, pos];
    scale *= 128;
  }
  throw new Error('protobuf: a varint longer than 10 bytes');
}

/** The varint bytes of a non-negative whole number. */
export function varint(value: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`protobuf: ${value} is not a non-negative whole number`);
  const out: number[] = [];
  while (value >= 0x80) {
    out.push((value % 128) | 0x80);
    value = Math.floor(value / 128);
  }
  out.push(value);
  return Uint8Array.from(out);
}

/** A message's fields in the order they were written. Views into `buf`, not copies. */
export function decode(buf: Uint8Array): Field[] {
  const fields: Field[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [tag, afterTag] = readVarint(buf, pos);
    const no = Math.floor(tag / 8);
    const wire = tag % 8;
    pos = afterTag;
    let end: number;
    let start = pos;
    if (wire === 0) end = readVarint(buf, pos)[1];
    else if (wire === 1) end = pos + 8;
    else if (wire === 5) end = pos + 4;
    else if (wire === 2) {
      const [length, afterLength] = readVarint(buf, pos);
      start = afterLength;
      end = afterLength + length;
    } else throw new Error(`protobuf: wire type ${wire} (field ${no}) is not supported`);
    if (end > buf.length || no === 0) throw new Error('protobuf: a field runs past the end of the message');
    fields.push({ no, wire, raw: buf.subarray(start, end) });
    pos = end;
  }
  return fields;
}

/** The bytes of a message made of `fields`. */
export function encode(fields: readonly Field[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let size = 0;
  for (const f of fields) {
    const head = f.wire === 2 ? [varint(f.no * 8 + f.wire), varint(f.raw.length)] : [varint(f.no * 8 + f.wire)];
    for (const part of [...head, f.raw]) {
      parts.push(part);
      size += part.length;
    }
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A length-delimited field holding `value` (a string, bytes or an encoded message). */
export function bytesField(no: number, value: string | Uint8Array): Field {
  return { no, wire: 2, raw: typeof value === 'string' ? encoder.encode(value) : value };
}

/** A varint field. */
export function varintField(no: number, value: number): Field {
  return { no, wire: 0, raw: varint(value) };
}

/** A 32-bit float field. */
export function floatField(no: number, value: number): Field {
  const raw = new Uint8Array(4);
  new DataView(raw.buffer).setFloat32(0, value, true);
  return { no, wire: 5, raw };
}

/** The string values of field `no` (a repeated string field in order). */
export function strings(fields: readonly Field[], no: number): string[] {
  return fields.filter((f) => f.no === no && f.wire === 2).map((f) => utf8.decode(f.raw));
}

/** The first string of field `no`, or null. */
export function string(fields: readonly Field[], no: number): string | null {
  return strings(fields, no)[0] ?? null;
}

/** The values of a repeated varint field `no`, packed or not (exact below 2^53; negative values are not read). */
export function varints(fields: readonly Field[], no: number): number[] {
  const out: number[] = [];
  for (const f of fields) {
    if (f.no !== no) continue;
    if (f.wire === 0) out.push(readVarint(f.raw, 0)[0]);
    else if (f.wire === 2) for (let pos = 0; pos < f.raw.length; ) [out[out.length], pos] = readVarint(f.raw, pos);
  }
  return out;
}

/** The values of a repeated 32-bit float field `no`, packed or not. */
export function floats(fields: readonly Field[], no: number): number[] {
  const out: number[] = [];
  for (const f of fields) {
    if (f.no !== no || (f.wire !== 5 && f.wire !== 2)) continue;
    const view = new DataView(f.raw.buffer, f.raw.byteOffset, f.raw.byteLength);
    for (let at = 0; at + 4 <= f.raw.length; at += 4) out.push(view.getFloat32(at, true));
  }
  return out;
}

/** `fields` with every field `no` replaced by `replacement`, placed where the first of them was (else at the end). */
export function replace(fields: readonly Field[], no: number, replacement: readonly Field[]): Field[] {
  const at = fields.findIndex((f) => f.no === no);
  const rest = fields.filter((f) => f.no !== no);
  if (at < 0) return [...rest, ...replacement];
  const before = fields.slice(0, at).filter((f) => f.no !== no).length;
  return [...rest.slice(0, before), ...replacement, ...rest.slice(before)];
}
