'use strict';
// Entities (items grouped by key prefix, or by the model file) and item collections (every item of
// one partition key, grouped by entity in sort-key order).
(function () {
  /** Items read for the entity view; a table larger than this is sampled from its start. */
  const SCAN_ITEMS_MAX = 5000;
  const COLLECTION_ITEMS_MAX = 2000;
  const SAMPLE_ROWS = 10;

  K.views.entities = async function (node, t, params, g) {
    K.render(node, K.html`<h1>${t.TableName} · entities</h1><p class="muted">Scanning…</p>`);
    const read = await K.readAll('Scan', { TableName: t.TableName }, SCAN_ITEMS_MAX);
    if (!K.current(g)) return;
    const groups = K.classify(t, read.items);
    const keys = K.keyNames(t.KeySchema);
    K.render(node, K.html`<h1>${t.TableName} · entities</h1>
      <p class="muted">${read.items.length} items${read.truncated ? ' (the first ' + SCAN_ITEMS_MAX + ')' : ''} read by Scan for
        ${read.units} RCU, grouped by the prefix before the first <code>#</code> of <code>${keys.pk}</code>${keys.sk ? K.html` and <code>${keys.sk}</code>` : ''}${(K.model.entities || []).length ? ', named by the model file' : ''}.</p>
      ${groups.map(gr => K.html`<div class="entity-group" data-group="${gr.group}">
        <h2>${gr.group} <span class="badge gray">${gr.entities.reduce((n, e) => n + e.items.length, 0)} items</span></h2>
        ${gr.entities.map(e => K.html`<div class="entity" data-entity="${e.entity.name}" data-count="${e.items.length}">
          <span class="name">${e.entity.name}</span>${e.entity.named ? K.html`<span class="badge ok">model</span>` : ''}
          <span class="muted mono">${K.attributeNames(t, e.items, 8).join(' · ')}</span>
          <span class="count">${e.items.length}</span></div>
          <div class="sample" hidden>${K.itemTable(t, e.items.slice(0, SAMPLE_ROWS), K.attributeNames(t, e.items, 8))}
          <p class="muted">${e.items.length > SAMPLE_ROWS ? 'First ' + SAMPLE_ROWS + ' of ' + e.items.length + '. ' : ''}Click a row for its item collection.</p></div>`)}
      </div>`)}`);
    node.querySelectorAll('.entity').forEach(row => row.addEventListener('click', () => {
      const sample = row.nextElementSibling;
      sample.hidden = !sample.hidden;
    }));
    node.querySelectorAll('tr[data-item]').forEach(tr => tr.addEventListener('click', () => {
      const item = JSON.parse(tr.dataset.item);
      K.go(t.TableName, 'collection', { pk: K.scalar(item[keys.pk]) });
    }));
  };

  K.views.collection = async function (node, t, params, g) {
    const keys = K.keyNames(t.KeySchema);
    const newest = params.order === 'newest';
    const pk = params.pk || '';
    K.render(node, K.html`<h1>${t.TableName} · item collection</h1>
      <form class="row" id="collection-form">
        <label>${keys.pk} (${K.attributeType(t, keys.pk)})<input name="pk" value="${pk}" size="40" placeholder="e.g. CHATROOM#room-xyz"></label>
        ${keys.sk ? K.html`<label class="inline"><input type="checkbox" name="newest" ${K.raw(newest ? 'checked' : '')}> newest first (ScanIndexForward=false)</label>` : ''}
        <button>Show</button>
      </form><div id="collection"></div>`);
    const form = node.querySelector('#collection-form');
    form.addEventListener('submit', ev => {
      ev.preventDefault();
      const f = new FormData(form);
      K.go(t.TableName, 'collection', { pk: f.get('pk'), order: f.get('newest') ? 'newest' : 'oldest' });
    });
    const newestBox = form.querySelector('[name=newest]');
    if (newestBox) newestBox.addEventListener('change', () => form.requestSubmit());
    if (!pk) return;
    const request = {
      TableName: t.TableName,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': keys.pk },
      ExpressionAttributeValues: { ':pk': K.typed(K.attributeType(t, keys.pk), pk) },
      ScanIndexForward: !newest,
    };
    const read = await K.readAll('Query', request, COLLECTION_ITEMS_MAX);
    if (!K.current(g)) return;
    const groups = K.classify(t, read.items);
    const out = node.querySelector('#collection');
    K.render(out, K.html`<p class="muted" id="collection-summary">${read.items.length} items in ${read.pages} page(s),
      <b data-rcu="${read.units}">${read.units} RCU</b>, ${keys.sk ? 'sort key ' + (newest ? 'descending (newest first)' : 'ascending') : 'no sort key'}.</p>
      ${groups.flatMap(gr => gr.entities).map(e => K.html`<div class="entity-group" data-collection-entity="${e.entity.name}">
        <h2>${e.entity.name} <span class="badge gray">${e.items.length}</span></h2>
        ${K.itemTable(t, e.items, K.attributeNames(t, e.items, 8))}</div>`)}
      <details><summary class="muted">The request</summary>${K.codeBlock('Query', request)}</details>`);
    K.wireCodeTabs(out);
    out.querySelectorAll('tr[data-item]').forEach(tr => tr.addEventListener('click', () => {
      K.editing = JSON.parse(tr.dataset.item);
      K.go(t.TableName, 'items', {});
    }));
  };
})();
