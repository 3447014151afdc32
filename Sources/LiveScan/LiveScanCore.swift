// `import LiveScan` brings the core's types too (items, tracking, the event log): one import for apps, as before
// the core became a module of its own.
@_exported import LiveScanCore
