'use strict';
// The query builder: Query or Scan on the table or any index, with key condition, filter and
// projection; shows the request as code, the capacity consumed (table and each index), the
// items read versus returned, and pages through LastEvaluatedKey.
(function () {
  const SK_OPS = ['', '=', '<', '<=', '>', '>=', 'begins_with', 'between'];

  function targets(t) {
    const list = [{ name: '', label: t.TableName + ' (table)', keySchema: t.KeySchema }];
    (t.GlobalSecondaryIndexes || []).forEach(x => list.push({ name: x.IndexName, label: x.IndexName + ' (GSI)', keySchema: x.KeySchema }));
    (t.LocalSecondaryIndexes || []).forEach(x => list.push({ name: x.IndexName, label: x.IndexName + ' (LSI)', keySchema: x.KeySchema }));
    return list;
  }

  function parseJson(text, what) {
    if (!text.trim()) return undefined;
    try { return JSON.parse(text); } catch (e) { throw new Error(what + ' is not JSON: ' + e.message); }
  }

  /** The request the form describes. */
  function build(t, f) {
    const target = targets(t).find(x => x.name === f.get('index'));
    const keys = K.keyNames(target.keySchema);
    const operation = f.get('operation');
    const r = { TableName: t.TableName, IndexName: target.name || undefined };
    const names = {}, values = Object.assign({}, parseJson(f.get('values'), 'Expression attribute values'));
    if (operation === 'Query') {
      names['#pk'] = keys.pk;
      values[':pk'] = K.typed(K.attributeType(t, keys.pk), f.get('pk'));
      let cond = '#pk = :pk';
      const op = f.get('skop');
      if (op && keys.sk) {
        names['#sk'] = keys.sk;
        const type = K.attributeType(t, keys.sk);
        values[':sk'] = K.typed(type, f.get('sk'));
        if (op === 'begins_with') cond += ' AND begins_with(#sk, :sk)';
        else if (op === 'between') { values[':sk2'] = K.typed(type, f.get('sk2')); cond += ' AND #sk BETWEEN :sk AND :sk2'; }
        else cond += ' AND #sk ' + op + ' :sk';
      }
      r.KeyConditionExpression = cond;
    }
    if (f.get('filter').trim()) r.FilterExpression = f.get('filter').trim();
    if (f.get('projection').trim()) r.ProjectionExpression = f.get('projection').trim();
    Object.assign(names, parseJson(f.get('names'), 'Expression attribute names'));
    if (Object.keys(names).length) r.ExpressionAttributeNames = names;
    if (Object.keys(values).length) r.ExpressionAttributeValues = values;
    if (operation === 'Query' && f.get('newest')) r.ScanIndexForward = false;
    if (f.get('limit')) r.Limit = Number(f.get('limit'));
    if (f.get('consistent')) r.ConsistentRead = true;
    r.ReturnConsumedCapacity = 'INDEXES';
    return { operation, request: r };
  }

  function capacityRows(c) {
    if (!c) return K.html`<p class="muted">No ConsumedCapacity in the answer.</p>`;
    const rows = [['Total', c.CapacityUnits]];
    if (c.Table) rows.push(['Table ' + c.TableName, c.Table.CapacityUnits]);
    Object.entries(c.GlobalSecondaryIndexes || {}).forEach(([n, x]) => rows.push(['GSI ' + n, x.CapacityUnits]));
    Object.entries(c.LocalSecondaryIndexes || {}).forEach(([n, x]) => rows.push(['LSI ' + n, x.CapacityUnits]));
    return K.html`<table class="capacity" id="capacity"><thead><tr><th>Consumed by</th><th>RCU</th></tr></thead><tbody>${rows.map(([n, u]) =>
      K.html`<tr data-capacity="${n}"><td>${n}</td><td><b>${u}</b></td></tr>`)}</tbody></table>`;
  }

  K.views.query = async function (node, t, params, g) {
    const ts = targets(t);
    K.render(node, K.html`<h1>${t.TableName} · query builder</h1>
      <form id="query-form">
        <div class="row">
          <label>Operation<select name="operation"><option>Query</option><option>Scan</option></select></label>
          <label>Table or index<select name="index">${ts.map(x => K.html`<option value="${x.name}" ${K.raw(x.name === (params.index || '') ? 'selected' : '')}>${x.label}</option>`)}</select></label>
        </div>
        <div class="row" id="key-row">
          <label id="pk-label">Partition key<input name="pk" size="34" value="${params.pk || ''}"></label>
          <label id="sk-label">Sort key condition<select name="skop">${SK_OPS.map(o => K.html`<option value="${o}">${o || '(none)'}</option>`)}</select></label>
          <label>value<input name="sk" size="24"></label>
          <label>and (between)<input name="sk2" size="18"></label>
        </div>
        <div class="row">
          <label style="flex:1">FilterExpression<input name="filter" placeholder="e.g. #a > :min"></label>
          <label style="flex:1">ProjectionExpression<input name="projection" placeholder="e.g. PK, SK, body"></label>
        </div>
        <div class="row">
          <label style="flex:1">ExpressionAttributeNames (JSON, optional)<input name="names" placeholder='{"#a": "age"}'></label>
          <label style="flex:1">ExpressionAttributeValues (JSON, optional)<input name="values" placeholder='{":min": {"N": "30"}}'></label>
        </div>
        <div class="row">
          <label>Limit<input name="limit" type="number" min="1" size="6" value="${params.limit || ''}"></label>
          <label class="inline"><input type="checkbox" name="newest"> ScanIndexForward=false</label>
          <label class="inline"><input type="checkbox" name="consistent"> ConsistentRead</label>
          <button id="run">Run</button>
        </div>
      </form>
      <div id="result"></div>`);
    const form = node.querySelector('#query-form');
    const syncKeys = () => {
      const target = ts.find(x => x.name === form.index.value);
      const keys = K.keyNames(target.keySchema);
      const query = form.operation.value === 'Query';
      node.querySelector('#key-row').hidden = !query;
      node.querySelector('#pk-label').firstChild.textContent = keys.pk + ' =';
      node.querySelector('#sk-label').firstChild.textContent = keys.sk ? keys.sk + ' condition' : '(no sort key)';
    };
    form.index.addEventListener('change', syncKeys);
    form.operation.addEventListener('change', syncKeys);
    syncKeys();
    let pageKey, pageNo = 0, built;
    const run = async next => {
      const out = node.querySelector('#result');
      try {
        if (!next) { built = build(t, new FormData(form)); pageKey = undefined; pageNo = 0; }
        const request = Object.assign({}, built.request, { ExclusiveStartKey: pageKey });
        const r = await K.call(built.operation, request);
        pageNo++;
        pageKey = r.LastEvaluatedKey;
        const items = r.Items || [];
        K.render(out, K.html`<h2>Page ${pageNo}</h2>
          <div class="grid">
            <div class="card stat"><b data-stat="count">${r.Count}</b><span>items returned (Count)</span></div>
            <div class="card stat"><b data-stat="scanned">${r.ScannedCount}</b><span>items read (ScannedCount)</span></div>
            <div class="card stat"><b data-stat="rcu">${r.ConsumedCapacity ? r.ConsumedCapacity.CapacityUnits : '—'}</b><span>RCU consumed</span></div>
            <div class="card stat"><b>${pageKey ? 'more' : 'end'}</b><span>LastEvaluatedKey</span></div>
          </div>
          <div class="cols"><div>${capacityRows(r.ConsumedCapacity)}
            ${pageKey ? K.html`<p><button class="secondary" id="next-page">Next page</button> <code>${JSON.stringify(pageKey)}</code></p>` : ''}</div>
            <div>${K.codeBlock(built.operation, request)}</div></div>
          <h3>Items</h3>${items.length ? K.itemTable(t, items) : K.html`<p class="muted">No items.</p>`}`);
        K.wireCodeTabs(out);
        const nextButton = out.querySelector('#next-page');
        if (nextButton) nextButton.addEventListener('click', () => run(true));
      } catch (e) {
        K.render(out, K.html`<div class="answer error"><h3>DynamoDB answered</h3><pre>${e.message}</pre></div>`);
      }
    };
    form.addEventListener('submit', ev => { ev.preventDefault(); run(false); });
    if (params.pk) run(false);
  };
})();
