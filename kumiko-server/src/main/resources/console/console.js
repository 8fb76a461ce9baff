'use strict';
// The console's shell: the table list, the tabs, and a hash router (#/t/<table>/<view>?k=v), so
// that every view has a link that can be shared or reloaded.
(function () {
  K.views = K.views || {};
  const TABS = [
    ['overview', 'Table'], ['entities', 'Entities'], ['collection', 'Item collection'], ['query', 'Query'],
    ['items', 'Edit items'], ['partiql', 'PartiQL'], ['vector', 'Vector search'], ['stream', 'Stream'], ['hotkeys', 'Hot keys'],
  ];
  let stopCurrent = null;
  let generation = 0;

  K.link = function (table, view, params) {
    const q = params ? '?' + new URLSearchParams(params).toString() : '';
    return '#/t/' + encodeURIComponent(table) + '/' + view + q;
  };

  K.go = function (table, view, params) {
    location.hash = K.link(table, view, params);
  };

  /** Lets a view stop its timers when another view replaces it. */
  K.onLeave = function (fn) {
    stopCurrent = fn;
  };

  /** Whether the view started in generation g is still the one shown. */
  K.current = g => g === generation;

  function parse() {
    if (location.hash === '#/create') return { table: null, view: 'create', params: {} };
    const m = /^#\/t\/([^/]+)\/([a-z]+)(?:\?(.*))?$/.exec(location.hash);
    if (!m) return { table: null, view: 'home', params: {} };
    return { table: decodeURIComponent(m[1]), view: m[2], params: Object.fromEntries(new URLSearchParams(m[3] || '')) };
  }

  async function tableList(current) {
    const names = [];
    let start;
    do {
      const r = await K.call('ListTables', { ExclusiveStartTableName: start });
      names.push(...r.TableNames);
      start = r.LastEvaluatedTableName;
    } while (start);
    const nav = document.getElementById('tables');
    K.render(nav, K.html`<h2>Tables (${names.length})</h2>${names.map(n =>
      K.html`<a href="${K.link(n, 'overview')}" data-table="${n}" class="${n === current ? 'current' : ''}">${n}</a>`)}`);
    return names;
  }

  /** The table's tabs; Vector search only for a table with vector indexes (or when asked for). */
  function tabs(table, view, t) {
    const node = document.getElementById('tabs');
    if (!table) { node.innerHTML = ''; return; }
    const shown = TABS.filter(([v]) => v !== 'vector' || v === view || (t && (t.VectorIndexes || []).length));
    K.render(node, K.html`${shown.map(([v, label]) =>
      K.html`<a role="tab" data-view="${v}" href="${K.link(table, v)}" class="${v === view ? 'current' : ''}">${label}</a>`)}`);
  }

  async function route() {
    if (stopCurrent) { stopCurrent(); stopCurrent = null; }
    const g = ++generation;
    const { table, view, params } = parse();
    const node = document.getElementById('view');
    try {
      const names = await tableList(table);
      tabs(table, view);
      if (!table) {
        await (view === 'create' ? K.views.create(node, g) : K.views.home(node, names, g));
        return;
      }
      const render = K.views[view];
      if (!render) throw new Error('No view ' + view);
      const t = await K.describe(table, view === 'overview');
      if (K.current(g)) tabs(table, view, t);
      await render(node, t, params, g);
    } catch (e) {
      if (K.current(g)) K.render(node, K.html`<div class="answer error"><pre>${e.message}</pre></div>`);
    }
  }

  window.addEventListener('hashchange', route);
  window.addEventListener('DOMContentLoaded', async () => {
    await K.loadRegion();
    await K.loadModel();
    document.getElementById('endpoint').textContent = location.origin + ' · ' + K.region;
    route();
  });
})();
