// engage-proxy CLI: filled in by the proxy work.
console.error('engage-proxy: not built yet');
