export type { EdgeConfig, RateLimitConfig } from './edge-config';
export { loadConfig, ConfigError, type AppConfig, type EventDeliveryConfig, type MetricsConfig } from './config';
// Embedded mode's generated operator token and signing key (the API and the CLI both read them).
export { newOperatorToken, newSigningKey, readOrCreateSecret, signingKey } from './embedded-secrets';
