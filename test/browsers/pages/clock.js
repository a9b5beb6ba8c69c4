// A wrong device clock, as a page sees one (a phone set by hand, a dead clock battery, a VM
// restored from a snapshot): `?clock=<ms>` moves `Date` and `performance.timeOrigin` by that much
// (negative: slow) before anything else runs. `setDeviceClock(ms)` moves it again, as NTP would;
// `realNow()` is the true time, for the test to compare with.
(() => {
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  const origin = performance.timeOrigin;
  let offset = Number(new URLSearchParams(location.search).get('clock') ?? 0);
  /** `new Date()` and `Date.now()` by the device's clock; a Date of a given time stays that time. */
  const DeviceDate = new Proxy(RealDate, {
    construct: (target, args, newTarget) => Reflect.construct(target, args.length ? args : [realNow() + offset], newTarget),
    get: (target, key) => (key === 'now' ? () => realNow() + offset : /** @type {unknown} */ (Reflect.get(target, key))),
  });
  window.Date = DeviceDate;
  Object.defineProperty(performance, 'timeOrigin', { get: () => origin + offset, configurable: true });
  window.realNow = realNow;
  window.setDeviceClock = (ms) => (offset = ms);
  window.engageErrors = [];
  addEventListener('engage:error', (event) => window.engageErrors.push(/** @type {CustomEvent<{ name: string }>} */ (event).detail.name));
})();
