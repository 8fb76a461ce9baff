'use strict';
// Vector search (SearchVectors) on a table's vector index: the vector pasted as a JSON list of
// numbers, or taken from an item's embedding attribute (read with GetItem); TopK, an optional
// SearchConditionExpression and projection; the results nearest first, each with its score.
(function () {
  /** SearchVectors' TopK bounds (docs/vector-search.md). */
  const TOP_K_MAX = 100;
  const TOP_K_DEFAULT = 10;

  function parseJson(text, what) {
    if (!text.trim()) return undefined;
    try { return JSON.parse(text); } catch (e) { throw new Error(what + ' is not JSON: ' + e.message); }
  }

  /** A pasted vector: a JSON list of numbers (or of {"N": "..."} values, as an item holds them). */
  function pastedVector(text) {
    const v = parseJson(text, 'The vector');
    if (!Array.isArray(v) || !v.length) throw new Error('The vector must be a JSON list of numbers, such as [0.12, -0.5, 0.33]');
    return v.map((x, i) => {
      const n = x && typeof x === 'object' && x.N !== undefined ? Number(x.N) : x;
      if (typeof n !== 'number' || !Number.isFinite(n)) throw new Error('Element ' + i + ' of the vector is not a number: ' + JSON.stringify(x));
      return n;
    });
  }

  /** The embedding of the item with this key: its vector attribute, a list of N. */
  async function itemVector(t, index, key) {
    const r = await K.call('GetItem', { TableName: t.TableName, Key: key });
    const attribute = index.VectorAttribute.AttributeName;
    if (!r.Item) throw new Error('No item with the key ' + JSON.stringify(key) + ' in ' + t.TableName);
    const v = r.Item[attribute];
    if (!v || !Array.isArray(v.L) || !v.L.every(x => x.N !== undefined)) {
      throw new Error('The item ' + JSON.stringify(key) + ' has no ' + attribute + ' attribute that is a list of numbers');
    }
    return v.L.map(x => Number(x.N));
  }

  function keyOf(t, form) {
    const keys = K.keyNames(t.KeySchema);
    const key = {};
    key[keys.pk] = K.typed(K.attributeType(t, keys.pk), form.pk.value);
    if (keys.sk) key[keys.sk] = K.typed(K.attributeType(t, keys.sk), form.sk.value);
    return key;
  }

  function indexLabel(x) {
    return x.IndexName + ' · ' + (x.VectorAttribute ? x.VectorAttribute.AttributeName : '?') + ' · ' + x.Dimensions + ' dimensions · ' + x.DistanceFunction;
  }

  function results(t, index, r) {
    const found = r.SearchResults || [];
    if (!found.length) return K.html`<p class="muted">No items.</p>`;
    const keys = K.keyNames(t.KeySchema);
    const attribute = index.VectorAttribute.AttributeName;
    const names = K.attributeNames(t, found.map(x => x.Item || {}), 10);
    const columns = names.filter(n => n !== attribute).concat(names.includes(attribute) ? [attribute] : []);
    const order = index.DistanceFunction === 'DOT_PRODUCT' ? 'largest first' : 'smallest first';
    return K.html`<p class="muted">${found.length} items, nearest first (score: ${index.DistanceFunction}, ${order}).
      Click a row to search with its embedding.</p>
      <div class="scroll-x"><table class="items" id="vector-results"><thead><tr><th>#</th><th>Score</th>${columns.map(c => K.html`<th>${c}</th>`)}</tr></thead>
      <tbody>${found.map((x, i) => K.html`<tr data-item="${JSON.stringify(x.Item || {})}" data-score="${x.Score}"><td>${i + 1}</td>
        <td class="score"><b>${x.Score}</b></td>${columns.map(c => K.cell(K.show((x.Item || {})[c]), c === keys.pk ? 'pk' : c === keys.sk ? 'sk' : ''))}</tr>`)}</tbody></table></div>`;
  }

  K.views.vector = async function (node, t, params) {
    const xs = t.VectorIndexes || [];
    if (!xs.length) {
      K.render(node, K.html`<h1>${t.TableName} · vector search</h1><p class="muted">The table has no vector index. Create one with
        UpdateTable (VectorIndexUpdates) or at CreateTable (VectorIndexes).</p>`);
      return;
    }
    const keys = K.keyNames(t.KeySchema);
    K.render(node, K.html`<h1>${t.TableName} · vector search</h1>
      <form id="vector-form">
        <div class="row"><label>Vector index<select name="index">${xs.map(x => K.html`<option value="${x.IndexName}" ${K.raw(x.IndexName === params.index ? 'selected' : '')}>${indexLabel(x)}</option>`)}</select></label></div>
        <div class="row">
          <label class="inline"><input type="radio" name="source" value="paste" checked> a vector</label>
          <label class="inline"><input type="radio" name="source" value="item"> the embedding of the item</label>
          <label class="from-item">${keys.pk}<input name="pk" size="24"></label>
          ${keys.sk ? K.html`<label class="from-item">${keys.sk}<input name="sk" size="24"></label>` : ''}
        </div>
        <label>SearchVector (JSON list of numbers)<textarea name="vector" rows="3" placeholder="[0.12, -0.5, 0.33, …]"></textarea></label>
        <div class="row">
          <label>TopK<input name="topk" type="number" min="1" max="${TOP_K_MAX}" size="5" value="${TOP_K_DEFAULT}"></label>
          <label style="flex:1">SearchConditionExpression (optional)<input name="filter" placeholder="category = :c"></label>
          <label style="flex:1">ProjectionExpression (optional)<input name="projection" placeholder="id, title"></label>
        </div>
        <div class="row">
          <label style="flex:1">ExpressionAttributeNames (JSON, optional)<input name="names" placeholder='{"#c": "category"}'></label>
          <label style="flex:1">ExpressionAttributeValues (JSON, optional)<input name="values" placeholder='{":c": {"S": "red"}}'></label>
          <button id="vector-run">Search</button>
        </div>
      </form>
      <div id="vector-result"></div>`);
    const form = node.querySelector('#vector-form');
    const syncSource = () => {
      const fromItem = form.querySelector('[name=source]:checked').value === 'item';
      form.querySelectorAll('.from-item').forEach(l => { l.hidden = !fromItem; });
      form.vector.readOnly = fromItem;
    };
    form.querySelectorAll('[name=source]').forEach(r => r.addEventListener('change', syncSource));
    syncSource();
    const run = async () => {
      const out = node.querySelector('#vector-result');
      const index = xs.find(x => x.IndexName === form.index.value);
      let request;
      try {
        const fromItem = form.querySelector('[name=source]:checked').value === 'item';
        const vector = fromItem ? await itemVector(t, index, keyOf(t, form)) : pastedVector(form.vector.value);
        if (fromItem) form.vector.value = JSON.stringify(vector);
        request = {
          TableName: t.TableName, IndexName: index.IndexName,
          SearchVector: vector.map(n => ({ N: String(n) })),
          TopK: Number(form.topk.value || TOP_K_DEFAULT),
          SearchConditionExpression: form.filter.value.trim() || undefined,
          ProjectionExpression: form.projection.value.trim() || undefined,
          ExpressionAttributeNames: parseJson(form.names.value, 'Expression attribute names'),
          ExpressionAttributeValues: parseJson(form.values.value, 'Expression attribute values'),
          ReturnConsumedCapacity: 'TOTAL',
        };
        Object.keys(request).forEach(k => request[k] === undefined && delete request[k]);
        const r = await K.call('SearchVectors', request);
        K.render(out, K.html`${results(t, index, r)}
          <details><summary class="muted">The request</summary>${K.codeBlock('SearchVectors', request)}</details>`);
        K.wireCodeTabs(out);
        out.querySelectorAll('tr[data-item]').forEach(tr => tr.addEventListener('click', () => {
          const item = JSON.parse(tr.dataset.item);
          if (!item[keys.pk]) return; // a projection without the key
          form.pk.value = K.scalar(item[keys.pk]);
          if (keys.sk && item[keys.sk]) form.sk.value = K.scalar(item[keys.sk]);
          form.querySelector('[name=source][value=item]').checked = true;
          syncSource();
          run();
        }));
      } catch (e) {
        K.render(out, K.errorBlock('SearchVectors', e, request));
        K.wireCodeTabs(out);
      }
    };
    form.addEventListener('submit', ev => { ev.preventDefault(); run(); });
  };
})();
