export * from './Flow';
//# sourceMappingURL=index.js.map