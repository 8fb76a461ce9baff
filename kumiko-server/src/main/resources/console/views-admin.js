'use strict';
// Creating and deleting tables. Create covers the keys, the billing mode (with throughput when
// PROVISIONED), global secondary indexes, vector indexes and a stream; delete asks for the
// table's name first.
// Both show DynamoDB's answer as it comes, so a refused table shows DynamoDB's own words.
(function () {
  const TYPES = ['S', 'N', 'B'];
  const PROJECTIONS = ['ALL', 'KEYS_ONLY', 'INCLUDE'];
  const STREAM_VIEWS = ['', 'KEYS_ONLY', 'NEW_IMAGE', 'OLD_IMAGE', 'NEW_AND_OLD_IMAGES'];
  /** GSIs on one table: DynamoDB's default quota; the form offers no more. */
  const GSIS_MAX = 20;
  /** Vector indexes on one table (docs/vector-search.md). */
  const VECTOR_INDEXES_MAX = 5;
  const DISTANCES = ['COSINE', 'EUCLIDEAN', 'DOT_PRODUCT'];

  const typeSelect = (name, value) => K.html`<select name="${name}">${TYPES.map(x =>
    K.html`<option ${K.raw(x === value ? 'selected' : '')}>${x}</option>`)}</select>`;

  function gsiFields(n) {
    return K.html`<fieldset class="gsi" data-gsi="${n}"><legend>Global secondary index ${n}</legend>
      <div class="row">
        <label>IndexName<input name="gsiName" size="18"></label>
        <label>Partition key<input name="gsiPk" size="16"></label><label>type${typeSelect('gsiPkType', 'S')}</label>
        <label>Sort key (optional)<input name="gsiSk" size="16"></label><label>type${typeSelect('gsiSkType', 'S')}</label>
        <label>Projection<select name="gsiProjection">${PROJECTIONS.map(x => K.html`<option>${x}</option>`)}</select></label>
        <label>NonKeyAttributes (INCLUDE)<input name="gsiInclude" size="18" placeholder="a, b"></label>
        <label class="provisioned">RCU<input name="gsiRcu" type="number" min="1" size="5" placeholder="table's"></label>
        <label class="provisioned">WCU<input name="gsiWcu" type="number" min="1" size="5" placeholder="table's"></label>
        <button type="button" class="secondary remove-gsi">Remove</button>
      </div></fieldset>`;
  }

  function vectorFields(n) {
    return K.html`<fieldset class="vector" data-vector="${n}"><legend>Vector index ${n} (on-demand tables only)</legend>
      <div class="row">
        <label>IndexName<input name="vName" size="18"></label>
        <label>Vector attribute<input name="vAttribute" size="14" placeholder="embedding"></label>
        <label>Dimensions<input name="vDimensions" type="number" min="1" size="6"></label>
        <label>DistanceFunction<select name="vDistance">${DISTANCES.map(x => K.html`<option>${x}</option>`)}</select></label>
        <label>Filter attributes (INLINE_FILTER)<input name="vFilters" size="18" placeholder="category, year"></label>
        <label>Projection<select name="vProjection">${PROJECTIONS.map(x => K.html`<option>${x}</option>`)}</select></label>
        <label>NonKeyAttributes (INCLUDE)<input name="vInclude" size="14" placeholder="a, b"></label>
        <button type="button" class="secondary remove-index">Remove</button>
      </div></fieldset>`;
  }

  const list = text => text.split(',').map(a => a.trim()).filter(Boolean);

  function vectorIndex(fs) {
    const v = name => (fs.querySelector('[name=' + name + ']').value || '').trim();
    const x = { IndexName: v('vName'), VectorAttribute: { AttributeName: v('vAttribute') }, Dimensions: Number(v('vDimensions')),
      DistanceFunction: v('vDistance'), Projection: { ProjectionType: v('vProjection') } };
    const filters = list(v('vFilters'));
    if (filters.length) x.SearchSchema = filters.map(a => ({ AttributeName: a, SearchSchemaElementType: 'INLINE_FILTER' }));
    if (x.Projection.ProjectionType === 'INCLUDE') x.Projection.NonKeyAttributes = list(v('vInclude'));
    return x;
  }

  /** The CreateTable request the form describes; what DynamoDB refuses, it refuses in its words. */
  function createRequest(form) {
    const value = name => (form.querySelector('[name=' + name + ']').value || '').trim();
    const definitions = [];
    const define = (name, type) => {
      if (!definitions.some(d => d.AttributeName === name && d.AttributeType === type)) {
        definitions.push({ AttributeName: name, AttributeType: type });
      }
    };
    const keySchema = (pk, pkType, sk, skType) => {
      const schema = [{ AttributeName: pk, KeyType: 'HASH' }];
      define(pk, pkType);
      if (sk) { schema.push({ AttributeName: sk, KeyType: 'RANGE' }); define(sk, skType); }
      return schema;
    };
    const provisioned = value('billing') === 'PROVISIONED';
    const throughput = (rcu, wcu) => ({ ReadCapacityUnits: Number(rcu), WriteCapacityUnits: Number(wcu) });
    const r = {
      TableName: value('TableName'),
      AttributeDefinitions: definitions,
      KeySchema: keySchema(value('pk'), value('pkType'), value('sk'), value('skType')),
      BillingMode: value('billing'),
    };
    if (provisioned) r.ProvisionedThroughput = throughput(value('rcu'), value('wcu'));
    const gsis = Array.from(form.querySelectorAll('fieldset.gsi')).map(fs => {
      const v = name => (fs.querySelector('[name=' + name + ']').value || '').trim();
      const x = { IndexName: v('gsiName'), KeySchema: keySchema(v('gsiPk'), v('gsiPkType'), v('gsiSk'), v('gsiSkType')),
        Projection: { ProjectionType: v('gsiProjection') } };
      if (x.Projection.ProjectionType === 'INCLUDE') {
        x.Projection.NonKeyAttributes = list(v('gsiInclude'));
      }
      if (provisioned) x.ProvisionedThroughput = throughput(v('gsiRcu') || value('rcu'), v('gsiWcu') || value('wcu'));
      return x;
    });
    if (gsis.length) r.GlobalSecondaryIndexes = gsis;
    const vectors = Array.from(form.querySelectorAll('fieldset.vector')).map(vectorIndex);
    if (vectors.length) r.VectorIndexes = vectors;
    if (value('stream')) r.StreamSpecification = { StreamEnabled: true, StreamViewType: value('stream') };
    return r;
  }

  K.views.create = async function (node) {
    K.render(node, K.html`<h1>Create table</h1>
      <form id="create-form">
        <div class="row"><label>TableName<input name="TableName" size="30" placeholder="Orders"></label></div>
        <div class="row">
          <label>Partition key<input name="pk" size="20" placeholder="PK"></label><label>type${typeSelect('pkType', 'S')}</label>
          <label>Sort key (optional)<input name="sk" size="20" placeholder="SK"></label><label>type${typeSelect('skType', 'S')}</label>
        </div>
        <div class="row">
          <label>BillingMode<select name="billing"><option>PAY_PER_REQUEST</option><option>PROVISIONED</option></select></label>
          <label class="provisioned">ReadCapacityUnits<input name="rcu" type="number" min="1" size="6" value="5"></label>
          <label class="provisioned">WriteCapacityUnits<input name="wcu" type="number" min="1" size="6" value="5"></label>
          <label>Stream<select name="stream">${STREAM_VIEWS.map(x => K.html`<option value="${x}">${x || 'off'}</option>`)}</select></label>
        </div>
        <div id="gsis"></div>
        <div id="vector-indexes"></div>
        <div class="row">
          <button type="button" class="secondary" id="add-gsi">Add global secondary index</button>
          <button type="button" class="secondary" id="add-vector-index">Add vector index</button>
          <button id="create">Create table</button>
        </div>
      </form>
      <div id="create-answer"></div>`);
    const form = node.querySelector('#create-form');
    const syncBilling = () => {
      const provisioned = form.billing.value === 'PROVISIONED';
      form.querySelectorAll('.provisioned').forEach(l => { l.hidden = !provisioned; });
    };
    form.billing.addEventListener('change', syncBilling);
    let gsiNumber = 0;
    node.querySelector('#add-gsi').addEventListener('click', () => {
      if (form.querySelectorAll('fieldset.gsi').length >= GSIS_MAX) return;
      node.querySelector('#gsis').insertAdjacentHTML('beforeend', gsiFields(++gsiNumber).__raw);
      syncBilling();
    });
    let vectorNumber = 0;
    node.querySelector('#add-vector-index').addEventListener('click', () => {
      if (form.querySelectorAll('fieldset.vector').length >= VECTOR_INDEXES_MAX) return;
      node.querySelector('#vector-indexes').insertAdjacentHTML('beforeend', vectorFields(++vectorNumber).__raw);
    });
    form.addEventListener('click', ev => {
      if (ev.target.classList.contains('remove-gsi')) ev.target.closest('fieldset.gsi').remove();
      if (ev.target.classList.contains('remove-index')) ev.target.closest('fieldset.vector').remove();
    });
    syncBilling();
    form.addEventListener('submit', async ev => {
      ev.preventDefault();
      const out = node.querySelector('#create-answer');
      const r = createRequest(form);
      try {
        await K.call('CreateTable', r);
        K.go(r.TableName, 'overview');
      } catch (e) {
        K.render(out, K.errorBlock('CreateTable', e, r));
        K.wireCodeTabs(out);
      }
    });
  };

  /** The overview's confirmation: the table is deleted only once its name is typed. */
  K.deleteConfirm = function (t) {
    return K.html`<div id="delete-confirm" class="card" hidden>
      <p>Deleting <b>${t.TableName}</b> deletes its ${t.ItemCount} items, its indexes and its stream. It cannot be undone.</p>
      <div class="row"><label>Type the table's name to confirm<input name="confirmName" size="30" autocomplete="off"></label>
        <button type="button" class="danger" id="delete-confirmed" disabled>Delete ${t.TableName}</button>
        <button type="button" class="secondary" id="delete-cancel">Cancel</button></div>
      <div id="delete-answer"></div></div>`;
  };

  K.wireDelete = function (node, t) {
    const panel = node.querySelector('#delete-confirm');
    const typed = panel.querySelector('[name=confirmName]');
    const confirmed = panel.querySelector('#delete-confirmed');
    node.querySelector('#delete-table').addEventListener('click', () => { panel.hidden = false; typed.focus(); });
    panel.querySelector('#delete-cancel').addEventListener('click', () => { panel.hidden = true; typed.value = ''; confirmed.disabled = true; });
    const sync = () => { confirmed.disabled = typed.value !== t.TableName; };
    typed.addEventListener('input', sync);
    typed.addEventListener('change', sync);
    confirmed.addEventListener('click', async () => {
      if (typed.value !== t.TableName) return;
      const r = { TableName: t.TableName };
      try {
        await K.call('DeleteTable', r);
        delete K.tableCache[t.TableName];
        location.hash = '#/';
      } catch (e) {
        K.render(panel.querySelector('#delete-answer'), K.errorBlock('DeleteTable', e, r));
        K.wireCodeTabs(panel);
      }
    });
  };
})();
