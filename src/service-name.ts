/** The name every trace and metric of the gateway carries, unless OTEL_SERVICE_NAME says otherwise. */
export const SERVICE_NAME = 'music-stats-gateway';
