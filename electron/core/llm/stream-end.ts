/**
 * Whether a streamed OpenAI-compatible answer ended properly. Most servers close every choice with a
 * `finish_reason`, but some (older llama.cpp builds, proxies that rewrite the stream) send only the closing
 * `data: [DONE]` line. The `openai` package swallows that line, so the client's `fetch` passes each event stream
 * through a watcher that notes it: a stream with `[DONE]` is complete; one that stops without either was cut.
 */

/** What the watcher saw of one response's event stream. */
interface StreamEnd {
  done: boolean;
}

const seen = new WeakMap<Response, StreamEnd>();

/** True when `response`'s event stream carried `data: [DONE]` (so far). False for a response not watched. */
export function sawDoneLine(response: Response): boolean {
  return seen.get(response)?.done ?? false;
}

/** A `fetch` for the `openai` package: like `base`, but event-stream bodies are watched for `data: [DONE]`. */
export function doneWatchingFetch(base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    const type = response.headers.get('content-type') ?? '';
    if (!response.body || !type.includes('text/event-stream')) return response;
    const end: StreamEnd = { done: false };
    const watched = new Response(response.body.pipeThrough(doneWatcher(end)), {
      status: response.status, statusText: response.statusText, headers: response.headers,
    });
    seen.set(watched, end);
    return watched;
  };
}

/** Passes the bytes through unchanged, setting `end.done` once a line `data: [DONE]` (or `data:[DONE]`) goes by. */
function doneWatcher(end: StreamEnd): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let line = '';
  return new TransformStream({
    transform(chunk, controller) {
      controller.enqueue(chunk);
      if (end.done) return;
      const lines = (line + decoder.decode(chunk, { stream: true })).split(/\r\n|\r|\n/);
      line = lines.pop() ?? '';
      if (lines.some(isDoneLine)) end.done = true;
    },
    flush() {
      if (!end.done && isDoneLine(line + decoder.decode())) end.done = true;
    },
  });
}

function isDoneLine(text: string): boolean {
  return /^data: ?\[DONE\]\s*$/.test(text);
}
