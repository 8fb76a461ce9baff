'use strict';
// Item editing: PutItem, UpdateItem and DeleteItem with optional conditions, showing DynamoDB's
// answer as it comes (the new or old item, the capacity, or the error and its message).
(function () {
  function keyOf(t, item) {
    const keys = K.keyNames(t.KeySchema);
    const key = {};
    [keys.pk, keys.sk].filter(Boolean).forEach(n => { if (item[n]) key[n] = item[n]; });
    return key;
  }

  function json(text, what) {
    if (!text.trim()) return undefined;
    try { return JSON.parse(text); } catch (e) { throw new Error(what + ' is not JSON: ' + e.message); }
  }

  function request(t, operation, f) {
    const item = json(f.get('item'), 'The item') || {};
    const r = { TableName: t.TableName };
    if (operation === 'PutItem') r.Item = item;
    else r.Key = keyOf(t, item);
    if (operation === 'UpdateItem') r.UpdateExpression = f.get('update').trim() || undefined;
    if (f.get('condition').trim()) r.ConditionExpression = f.get('condition').trim();
    r.ExpressionAttributeNames = json(f.get('names'), 'Expression attribute names');
    r.ExpressionAttributeValues = json(f.get('values'), 'Expression attribute values');
    r.ReturnValues = operation === 'UpdateItem' ? 'ALL_NEW' : 'ALL_OLD';
    r.ReturnConsumedCapacity = 'INDEXES';
    if (r.ConditionExpression) r.ReturnValuesOnConditionCheckFailure = 'ALL_OLD';
    Object.keys(r).forEach(k => r[k] === undefined && delete r[k]);
    return r;
  }

  K.views.items = async function (node, t, params, g) {
    const keys = K.keyNames(t.KeySchema);
    const example = {};
    example[keys.pk] = K.typed(K.attributeType(t, keys.pk), '');
    if (keys.sk) example[keys.sk] = K.typed(K.attributeType(t, keys.sk), '');
    const item = K.editing || example;
    K.editing = null;
    K.render(node, K.html`<h1>${t.TableName} · edit items</h1>
      <form id="item-form" class="cols">
        <div>
          <label>Item (DynamoDB JSON; Update and Delete use its key)<textarea name="item" rows="12">${JSON.stringify(item, null, 2)}</textarea></label>
          <label>UpdateExpression (UpdateItem)<input name="update" placeholder="SET #n = :v ADD hits :one"></label>
          <label>ConditionExpression (optional)<input name="condition" placeholder="attribute_not_exists(${keys.pk})"></label>
          <div class="row">
            <label style="flex:1">ExpressionAttributeNames<input name="names" placeholder='{"#n": "name"}'></label>
            <label style="flex:1">ExpressionAttributeValues<input name="values" placeholder='{":v": {"S": "x"}}'></label>
          </div>
          <div class="row">
            <button type="button" data-op="PutItem">Put</button>
            <button type="button" data-op="UpdateItem">Update</button>
            <button type="button" data-op="DeleteItem" class="danger">Delete</button>
          </div>
        </div>
        <div id="answer"></div>
      </form>`);
    const form = node.querySelector('#item-form');
    form.querySelectorAll('button[data-op]').forEach(b => b.addEventListener('click', async () => {
      const out = node.querySelector('#answer');
      const operation = b.dataset.op;
      let r;
      try {
        r = request(t, operation, new FormData(form));
        const answer = await K.call(operation, r);
        delete K.tableCache[t.TableName];
        K.render(out, K.html`<div class="answer ok" data-answer="ok"><h3>${operation}: DynamoDB answered 200</h3>
          <pre>${JSON.stringify(answer, null, 2)}</pre>${K.codeBlock(operation, r)}</div>`);
      } catch (e) {
        K.render(out, K.html`<div class="answer error" data-answer="${e.type || 'error'}"><h3>${operation}: DynamoDB answered ${e.status || ''}</h3>
          <pre>${e.body ? JSON.stringify(e.body, null, 2) : e.message}</pre>${r ? K.codeBlock(operation, r) : ''}</div>`);
      }
      K.wireCodeTabs(out);
    }));
  };
})();
