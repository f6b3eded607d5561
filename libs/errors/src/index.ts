export {
  DomainError,
  ERROR_STATUS,
  TRANSIENT_ERRORS,
  errorBody,
  type ErrorBody,
  type ErrorCode,
  type ErrorDetails,
} from './domain-error';
