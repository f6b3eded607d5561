export { loadConfig, ConfigError, type AppConfig, type EventDeliveryConfig } from './config';
