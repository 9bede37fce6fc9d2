/**
 * OpenTelemetry for the examples: when `OTEL_EXPORTER_OTLP_ENDPOINT` is set, a tracer provider
 * exporting OTLP over HTTP (the SDK reads the standard `OTEL_*` variables: endpoint, headers,
 * `OTEL_SERVICE_NAME`, `OTEL_BSP_SCHEDULE_DELAY`), registered before the core is made so its spans
 * go there. Without the variable nothing of the SDK is loaded. Returns what flushes and stops it.
 */
export async function startTelemetry(): Promise<(() => Promise<void>) | null> {
  if (!process.env['OTEL_EXPORTER_OTLP_ENDPOINT']) return null;
  const { BatchSpanProcessor, NodeTracerProvider } = await import('@opentelemetry/sdk-trace-node');
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } = await import('@opentelemetry/resources');
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': process.env['OTEL_SERVICE_NAME'] || 'latchkey' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  return () => provider.shutdown();
}
