/** Injection token of the event delivery settings (the health check reads the outbox lag threshold). */
export const EVENT_DELIVERY_CONFIG = Symbol('EVENT_DELIVERY_CONFIG');
