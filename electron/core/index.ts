/** The engine's public surface: the facade and what hosts need to start it. */
export { createSift, type Sift, type SiftConfig } from './sift';
export { resolveDataDir, defaultDataDir, dataPaths } from './base/paths';
export { embeddingConfigFromEnv, type EmbeddingConfig } from './embed/embedding';
export { ollamaHostFromEnv } from './config/settings';
export { encryptedFileSecrets, keychainCipher, NO_SECRETS, type Cipher, type OsCipher, type SecretStore } from './config/secrets';
