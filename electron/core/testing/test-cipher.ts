/**
 * Real encryption standing in for Electron's `safeStorage` in tests (the Electron binary cannot run here): AES-256-GCM
 * with a key made per cipher, so what one cipher sealed another cannot open.
 */
import crypto from 'node:crypto';
import type { Cipher } from '../config/secrets';

/** A cipher; `available` false is a system without OS encryption. */
export function testCipher(available = true): Cipher {
  const key = crypto.randomBytes(32);
  return {
    isEncryptionAvailable: () => available,
    encryptString(text) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decryptString(sealed) {
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(12, 28));
      return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

