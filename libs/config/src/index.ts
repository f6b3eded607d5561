export { loadConfig, ConfigError, type AppConfig } from './config';
