'use strict';
// PartiQL: ExecuteStatement with parameters (a JSON list of DynamoDB values), Limit and
// ConsistentRead, paged through NextToken; shows the items, the capacity, or DynamoDB's error.
(function () {
  function parseParameters(text) {
    if (!text.trim()) return undefined;
    let v;
    try { v = JSON.parse(text); } catch (e) { throw new Error('Parameters is not JSON: ' + e.message); }
    if (!Array.isArray(v)) throw new Error('Parameters must be a JSON list of DynamoDB values, such as [{"S": "a"}, {"N": "1"}]');
    return v;
  }

  function build(form) {
    const r = { Statement: form.statement.value };
    const parameters = parseParameters(form.parameters.value);
    if (parameters) r.Parameters = parameters;
    if (form.limit.value) r.Limit = Number(form.limit.value);
    if (form.consistent.checked) r.ConsistentRead = true;
    r.ReturnConsumedCapacity = 'TOTAL';
    return r;
  }

  K.views.partiql = async function (node, t) {
    K.render(node, K.html`<h1>${t.TableName} · PartiQL</h1>
      <form id="partiql-form">
        <label>Statement<textarea name="statement" rows="4">SELECT * FROM "${t.TableName}"</textarea></label>
        <div class="row">
          <label style="flex:1">Parameters (JSON list of DynamoDB values, one per ?)<input name="parameters" placeholder='[{"S": "USER#1"}]'></label>
          <label>Limit<input name="limit" type="number" min="1" size="6"></label>
          <label class="inline"><input type="checkbox" name="consistent"> ConsistentRead</label>
          <button id="partiql-run">Run</button>
        </div>
      </form>
      <div id="partiql-result"></div>`);
    const form = node.querySelector('#partiql-form');
    let built, page = 0, token;
    const run = async next => {
      const out = node.querySelector('#partiql-result');
      let request;
      try {
        if (!next) { built = build(form); page = 0; token = undefined; }
        request = Object.assign({}, built, { NextToken: token });
        if (!token) delete request.NextToken;
        const r = await K.call('ExecuteStatement', request);
        delete K.tableCache[t.TableName]; // a statement may have written
        page++;
        token = r.NextToken;
        const items = r.Items || [];
        K.render(out, K.html`<h2 data-page="${page}">Page ${page}</h2>
          <div class="grid">
            <div class="card stat"><b data-stat="count">${items.length}</b><span>items</span></div>
            <div class="card stat"><b data-stat="rcu">${r.ConsumedCapacity ? r.ConsumedCapacity.CapacityUnits : '—'}</b><span>capacity units</span></div>
            <div class="card stat"><b>${token ? 'more' : 'end'}</b><span>NextToken</span></div>
          </div>
          ${token ? K.html`<p><button type="button" class="secondary" id="partiql-next">Next page</button></p>` : ''}
          ${items.length ? K.itemTable(t, items) : K.html`<p class="muted">No items.</p>`}
          <details><summary class="muted">The request</summary>${K.codeBlock('ExecuteStatement', request)}</details>`);
        K.wireCodeTabs(out);
        const nextButton = out.querySelector('#partiql-next');
        if (nextButton) nextButton.addEventListener('click', () => run(true));
      } catch (e) {
        K.render(out, K.errorBlock('ExecuteStatement', e, request));
        K.wireCodeTabs(out);
      }
    };
    form.addEventListener('submit', ev => { ev.preventDefault(); run(false); });
  };
})();
