export {
  DomainError,
  ERROR_STATUS,
  errorBody,
  type ErrorBody,
  type ErrorCode,
  type ErrorDetails,
} from './domain-error';
