// The demo's live panel: what this page recorded, what waits, what is in flight, what the
// emulator received (through a demo route on this origin), and controls to break things. It reads
// the tracker through its public lifecycle surface (onLifecycle), as any app may: nothing wrapped.
import * as sdk from '/demo/build/engage.js';

/** The element with `id`: the panel's own, or the page's `#panel`. */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** Builds an element from a tag, properties and children; no innerHTML, no inline style. */
function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key.startsWith('data-') || key === 'for' || key === 'role' || key.startsWith('aria-')) element.setAttribute(key, value);
    else element[key] = value;
  }
  element.append(...children.filter((child) => child !== undefined && child !== null));
  return element;
}

const api = async (path, body) => {
  const response = await fetch(`/demo-api/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? undefined : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json();
};

/**
 * Mounts the panel into `#panel`.
 * @param {{ label: string, flush: () => Promise<void> }} options
 * @returns {{ watch(tracker: object): void, error(error: Error): void }}
 */
export function createPanel({ label, flush }) {
  const recorded = new Map(); // uuid → { action, experience, b_id }
  const inFlight = new Set();
  const acknowledged = new Set();
  let lastError = '';
  const describe = (error) => `${error.name}${error.status ? ` ${error.status}` : ''}: ${error.message}`;

  /** One lifecycle event: recorded here, in flight until answered, acknowledged on a 2xx. */
  function take(event) {
    if (event.type === 'recorded') {
      const { uuid, action, attributes } = event.record;
      recorded.set(uuid, { action, experience: attributes.experience, b_id: attributes.b_id });
      log.prepend(
        h(
          'li',
          { 'data-action': action, 'data-experience': String(attributes.experience), 'data-b-id': attributes.b_id ?? '' },
          `${action === 'shown' ? 'impression' : 'click'} · ${attributes.experience}${attributes.b_id ? ` · b_id=${attributes.b_id}` : ''}`,
        ),
      );
      while (log.children.length > 12) log.lastElementChild.remove();
    } else if (event.type === 'sending') event.uuids.forEach((uuid) => inFlight.add(uuid));
    else if (event.type === 'delivered' || event.type === 'refused' || event.type === 'dropped') {
      event.uuids.forEach((uuid) => inFlight.delete(uuid));
      if (event.type === 'delivered') {
        event.uuids.forEach((uuid) => acknowledged.add(uuid));
        lastError = '';
      } else if (event.error) lastError = describe(event.error);
    } else return;
    render();
  }

  const counter = (id, text) => h('div', { className: 'counter' }, h('dt', {}, text), h('dd', { id }, '0'));
  const counters = h(
    'dl',
    { className: 'counters' },
    counter('recorded', 'recorded here'),
    counter('queued', 'queued'),
    counter('in-flight', 'in flight'),
    counter('delivered', 'delivered (emulator)'),
    counter('duplicates', 'duplicates'),
  );
  const table = h('tbody', { id: 'per-experience' });
  const status = h('p', { id: 'status', role: 'status' });
  const offlineButton = h('button', { id: 'toggle-offline', type: 'button' }, 'Go offline');
  const failures = h(
    'select',
    { id: 'failure-ratio' },
    h('option', { value: '0' }, 'none'),
    h('option', { value: '0.3' }, '30% (500/503/429)'),
    h('option', { value: '1' }, '100% (500/503/429)'),
  );
  const rotate = h('button', { id: 'rotate-key', type: 'button' }, 'Rotate the key');
  const giveKey = h('button', { id: 'give-key', type: 'button', disabled: true }, 'Give the proxy the new key');
  const flushButton = h('button', { id: 'flush-now', type: 'button' }, 'Flush now');
  const log = h('ol', { id: 'recorded-log', className: 'log' });
  const imports = h('ul', { id: 'imports', className: 'imports' });
  const importButton = h('button', { id: 'start-import', type: 'button' }, 'Start a file import');

  byId('panel').append(
    h('h2', {}, `Live · ${label}`),
    counters,
    h(
      'table',
      { className: 'experiences' },
      h('thead', {}, h('tr', {}, h('th', {}, 'experience'), h('th', {}, 'impressions'), h('th', {}, 'clicks'), h('th', {}, 'CTR'))),
      table,
    ),
    h('div', { className: 'controls' }, offlineButton, h('label', {}, 'Upstream failures ', failures), rotate, giveKey, flushButton),
    status,
    h('h3', {}, 'Recorded on this page'),
    log,
    h('h3', {}, 'File imports (typed client)'),
    importButton,
    imports,
  );

  let server = { delivered: 0, duplicates: 0, experiences: {}, offline: false, upstreamFailures: 0, keyRotated: false };
  function render() {
    const ids = [...recorded.keys()];
    byId('recorded').textContent = String(ids.length);
    byId('queued').textContent = String(ids.filter((id) => !acknowledged.has(id) && !inFlight.has(id)).length);
    byId('in-flight').textContent = String(inFlight.size);
    byId('delivered').textContent = String(server.delivered);
    byId('duplicates').textContent = String(server.duplicates);
    table.replaceChildren(
      ...Object.entries(server.experiences).map(([name, row]) =>
        h(
          'tr',
          { 'data-experience': name },
          h('td', {}, name),
          h('td', { className: 'impressions' }, String(row.impressions)),
          h('td', { className: 'clicks' }, String(row.clicks)),
          h('td', {}, `${(row.ctr * 100).toFixed(1)}%`),
        ),
      ),
    );
    offlineButton.textContent = server.offline ? 'Back online' : 'Go offline';
    offlineButton.classList.toggle('active', server.offline);
    failures.value = String(server.upstreamFailures);
    giveKey.disabled = !server.keyRotated;
    const state = [
      server.offline && 'Offline: the proxy path drops every connection.',
      server.upstreamFailures > 0 && `Upstream failing ${Math.round(server.upstreamFailures * 100)}% of requests.`,
      server.keyRotated && 'Key rotated: the proxy still has the old one, so events are held (401).',
      lastError && `Last delivery problem: ${lastError}`,
    ].filter(Boolean);
    status.textContent = state.join(' ') || 'All good: events flow to the emulator.';
  }

  const refresh = async () => {
    try {
      server = await api('state');
    } catch {
      // The demo server is gone or restarting: keep the last figures.
    }
    render();
  };
  const control = (element, event, run) =>
    element.addEventListener(event, async () => {
      server = await run();
      render();
    });
  control(offlineButton, 'click', () => api('offline', { offline: !server.offline }));
  control(failures, 'change', () => api('upstream-failures', { ratio: Number(failures.value) }));
  control(rotate, 'click', () => api('rotate-key', {}));
  control(giveKey, 'click', async () => {
    const next = await api('give-proxy-key', {});
    // Held events go now, not after the tracker's long back-off for a rejected key.
    flush().catch(() => {});
    return next;
  });
  flushButton.addEventListener(
    'click',
    () =>
      void flush()
        .then(
          () => (lastError = ''),
          () => {},
        )
        .then(refresh),
  );
  importButton.addEventListener('click', () => startImport(imports).catch((error) => (status.textContent = `Import failed: ${error.message}`)));

  setInterval(() => void refresh(), 1_000);
  void refresh();

  return {
    /** Lists what `tracker` (a tracker, or `Engage`) records and follows each event to its end. */
    watch(tracker) {
      sdk.onLifecycle(tracker, take);
    },
    error(error) {
      lastError = describe(error);
      render();
    },
  };
}

let client;
/** The typed client's file imports (fetch fallback while `createClient` is not in the build). */
function fileImports() {
  if (sdk.createClient) return (client ??= sdk.createClient({ endpoint: '/engage' })).fileImports;
  return {
    async *watch(name) {
      for (;;) {
        const response = await fetch('/engage/v1.0/data/fileimports/import/status', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ import_name: name }),
        });
        const record = response.ok ? (await response.json()).data?.[0] : undefined;
        if (record) {
          const done = !['QUEUED', 'PROCESSING', 'SCHEDULED'].includes(record.status);
          yield { ...record, done };
          if (done) return;
        }
        await new Promise((resolve) => setTimeout(resolve, 2_000));
      }
    },
  };
}

async function startImport(list) {
  const created = await api('imports', {});
  if (!created.import_name) throw new Error('the emulator refused the import');
  const bar = h('progress', { max: 100, value: 0 });
  const text = h('span', { className: 'import-status' }, 'QUEUED');
  list.prepend(h('li', { 'data-import': created.import_name }, h('strong', {}, created.import_name), bar, text));
  for await (const progress of fileImports().watch(created.import_name, { interval: 2_000 })) {
    bar.value = progress.total_rows ? Math.round((100 * progress.processed_rows) / progress.total_rows) : 0;
    text.textContent = `${progress.status} · ${progress.processed_rows.toLocaleString('en')} / ${progress.total_rows.toLocaleString('en')} rows`;
    if (progress.done) bar.classList.add('done');
  }
}
