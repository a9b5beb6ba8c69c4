// engage-emulator CLI: filled in by the emulator work.
console.error('engage-emulator: not built yet');
