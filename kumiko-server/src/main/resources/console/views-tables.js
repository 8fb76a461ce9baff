'use strict';
// Tables: every table's keys, indexes, TTL, stream, item count and size; on a table's overview,
// the keys Contributor Insights counted for it and its GSIs (when turned on with
// UpdateContributorInsights), from /console/api/contributor-insights.
(function () {
  function keys(schema, table) {
    return schema.map(k => K.html`<code>${k.AttributeName}</code> <span class="muted">(${k.KeyType === 'HASH' ? 'partition' : 'sort'} key, ${K.attributeType(table, k.AttributeName)})</span> `);
  }

  function indexes(t) {
    const all = [].concat((t.GlobalSecondaryIndexes || []).map(x => Object.assign({ kind: 'GSI' }, x)),
      (t.LocalSecondaryIndexes || []).map(x => Object.assign({ kind: 'LSI' }, x)));
    return all;
  }

  function ttlText(t) {
    const d = t.ttl;
    if (!d || d.TimeToLiveStatus === 'DISABLED') return 'off';
    return d.AttributeName + ' (' + d.TimeToLiveStatus.toLowerCase() + ')';
  }

  function streamText(t) {
    const s = t.StreamSpecification;
    return s && s.StreamEnabled ? s.StreamViewType : 'off';
  }

  K.views.home = async function (node, names, g) {
    const tables = await Promise.all(names.map(n => K.describe(n, true)));
    if (!K.current(g)) return;
    if (!tables.length) {
      K.render(node, K.html`<h1>No tables yet</h1><p class="muted">Create one here or with any DynamoDB client pointed at ${location.origin}.</p>
        <p><a class="button" id="create-table" href="#/create">Create table</a></p>`);
      return;
    }
    K.render(node, K.html`<div class="row heading"><h1>Tables</h1><a class="button" id="create-table" href="#/create">Create table</a></div>
      <div class="scroll-x"><table id="table-list"><thead><tr><th>Table</th><th>Keys</th><th>Indexes</th>
      <th>TTL</th><th>Stream</th><th>Items</th><th>Size</th></tr></thead><tbody>${tables.map(t => K.html`
      <tr data-table="${t.TableName}"><td><a href="${K.link(t.TableName, 'overview')}">${t.TableName}</a></td>
      <td>${keys(t.KeySchema, t)}</td>
      <td>${indexes(t).map(x => K.html`<span class="badge">${x.kind}</span> ${x.IndexName} `)}</td>
      <td>${ttlText(t)}</td><td>${streamText(t)}</td><td>${t.ItemCount}</td><td>${K.bytes(t.TableSizeBytes)}</td></tr>`)}
      </tbody></table></div>`);
  };

  K.views.overview = async function (node, t, params, g) {
    const xs = indexes(t);
    K.render(node, K.html`<div class="row heading"><h1>${t.TableName}</h1>
        <button type="button" class="secondary danger-text" id="delete-table">Delete table…</button></div>
      ${K.deleteConfirm(t)}
      <div class="grid">
        <div class="card stat"><b data-stat="items">${t.ItemCount}</b><span>items</span></div>
        <div class="card stat"><b>${K.bytes(t.TableSizeBytes)}</b><span>size</span></div>
        <div class="card stat"><b data-stat="billing">${K.breakable(t.BillingModeSummary ? t.BillingModeSummary.BillingMode : 'PROVISIONED')}</b><span>capacity mode</span></div>
        <div class="card stat"><b data-stat="ttl">${K.breakable(ttlText(t))}</b><span>time to live</span></div>
        <div class="card stat"><b data-stat="stream">${K.breakable(streamText(t))}</b><span>stream</span></div>
      </div>
      <h2>Primary key</h2><div class="card">${keys(t.KeySchema, t)}</div>
      <h2>Indexes (${xs.length})</h2>
      ${xs.length ? K.html`<div class="scroll-x"><table id="indexes"><thead><tr><th>Index</th><th>Kind</th><th>Keys</th><th>Projection</th><th>Items</th><th>Size</th><th></th></tr></thead>
      <tbody>${xs.map(x => K.html`<tr data-index="${x.IndexName}"><td>${x.IndexName}</td><td>${x.kind}</td><td>${keys(x.KeySchema, t)}</td>
        <td>${x.Projection.ProjectionType}${x.Projection.NonKeyAttributes ? ' ' + x.Projection.NonKeyAttributes.join(', ') : ''}</td>
        <td>${x.ItemCount}</td><td>${K.bytes(x.IndexSizeBytes)}</td>
        <td><a href="${K.link(t.TableName, 'query', { index: x.IndexName })}">query</a></td></tr>`)}</tbody></table></div>`
        : K.html`<p class="muted">None.</p>`}
      <p class="muted">Item count and size are current (DynamoDB updates them about every six hours).</p>
      ${vectorIndexes(t)}
      <h2>Contributor Insights</h2><div id="contributor-insights"><p class="muted">Loading…</p></div>`);
    K.wireDelete(node, t);
    const data = await K.getJson('/console/api/contributor-insights?table=' + encodeURIComponent(t.TableName));
    const place = node.querySelector('#contributor-insights');
    if (!K.current(g) || !place) return;
    K.render(place, insights(data.resources));
  };

  function vectorIndexes(t) {
    const xs = t.VectorIndexes || [];
    if (!xs.length) return '';
    return K.html`<h2>Vector indexes (${xs.length})</h2><div class="scroll-x"><table id="vector-indexes"><thead><tr><th>Index</th>
      <th>Vector attribute</th><th>Dimensions</th><th>Distance</th><th>Status</th><th>Items</th><th></th></tr></thead>
      <tbody>${xs.map(x => K.html`<tr data-vector-index="${x.IndexName}"><td>${x.IndexName}</td><td><code>${x.VectorAttribute ? x.VectorAttribute.AttributeName : ''}</code></td>
        <td>${x.Dimensions}</td><td>${x.DistanceFunction}</td><td>${x.IndexStatus || ''}${x.Backfilling ? ' (backfilling)' : ''}</td><td>${x.ItemCount}</td>
        <td><a href="${K.link(t.TableName, 'vector', { index: x.IndexName })}">search</a></td></tr>`)}</tbody></table></div>`;
  }

  const RULES = { PKC: 'Most accessed (partition key)', SKC: 'Most accessed (partition and sort key)',
    PKT: 'Most throttled (partition key)', SKT: 'Most throttled (partition and sort key)' };

  function insights(resources) {
    if (!resources.length) {
      return K.html`<p class="muted">Off for this table and its indexes. Turn it on with UpdateContributorInsights.</p>`;
    }
    return K.html`${resources.map(r => K.html`<div class="card" data-insights="${r.index || ''}">
      <b>${r.index ? 'Index ' + r.index : 'Table'}</b> <span class="muted">${r.mode}</span>
      ${Object.keys(r.rules).map(rule => K.html`<h3>${RULES[rule] || rule}</h3>
        ${r.rules[rule].length ? K.html`<div class="scroll-x"><table data-rule="${rule}"><thead><tr><th>Partition key</th>${rule[0] === 'S' ? K.html`<th>Sort key</th>` : ''}<th>Requests</th></tr></thead>
        <tbody>${r.rules[rule].map(k => K.html`<tr>${K.cell(K.show(k.partitionKey), 'mono')}${rule[0] === 'S' ? K.cell(K.show(k.sortKey), 'mono') : ''}<td>${k.count}</td></tr>`)}</tbody></table></div>`
        : K.html`<p class="muted">No requests counted yet.</p>`}`)}</div>`)}`;
  }
})();
