'use strict';
// The console's client for Kumiko's own DynamoDB API: JSON 1.0 over fetch, as any SDK sends it.
// With --auth=none the server accepts any credentials, so the Authorization header is a stand-in
// that names the region; the console is off when the server verifies signatures.
const K = window.K = { views: {} };

K.region = 'us-east-1';

K.loadRegion = async function () {
  // The health line names the server's region: "healthy: dynamodb.<region>.amazonaws.com".
  const text = await (await fetch('/')).text();
  const m = /dynamodb\.([a-z0-9-]+)\.amazonaws/.exec(text);
  if (m) K.region = m[1];
};

K.call = async function (operation, body, streams) {
  const target = (streams ? 'DynamoDBStreams_20120810.' : 'DynamoDB_20120810.') + operation;
  const date = new Date().toISOString().slice(0, 10).replace(/-/g, '');
  const response = await fetch('/', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-amz-json-1.0',
      'X-Amz-Target': target,
      'Authorization': 'AWS4-HMAC-SHA256 Credential=kumiko-console/' + date + '/' + K.region +
        '/dynamodb/aws4_request, SignedHeaders=host;x-amz-target, Signature=0',
    },
    body: JSON.stringify(body || {}),
  });
  const json = await response.json();
  if (!response.ok) {
    const type = String(json.__type || 'Error').split('#').pop();
    const e = new Error(type + ': ' + (json.message || json.Message || ''));
    e.status = response.status; e.type = type; e.body = json;
    throw e;
  }
  return json;
};

K.getJson = async function (path) {
  const r = await fetch(path);
  if (!r.ok) throw new Error(path + ': HTTP ' + r.status);
  return r.json();
};

// ---- small DOM helpers ---------------------------------------------------------------------
K.esc = function (s) {
  return String(s).replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
};

K.html = function (strings, ...values) {
  let out = strings[0];
  values.forEach((v, i) => {
    out += (v && v.__raw !== undefined) ? v.__raw : Array.isArray(v) ? v.map(x => x && x.__raw !== undefined ? x.__raw : K.esc(x)).join('') : K.esc(v == null ? '' : v);
    out += strings[i + 1];
  });
  return { __raw: out };
};

K.raw = s => ({ __raw: s });

/** Text that may break after each '_' and '#' (PAY_PER_REQUEST, NEW_AND_OLD_IMAGES) in a narrow box. */
K.breakable = s => K.raw(K.esc(s == null ? '' : s).replace(/([_#])/g, '$1<wbr>'));

/** DynamoDB's error as it answered it: the type, the HTTP status and the message, unchanged. */
K.errorBlock = function (operation, e, request) {
  return K.html`<div class="answer error" data-answer="${e.type || 'error'}"><h3>${operation}: ${e.status
    ? 'DynamoDB answered ' + e.status : 'not sent'}</h3><pre class="message">${e.message}</pre>${request && e.status
    ? K.codeBlock(operation, request) : ''}</div>`;
};

K.render = function (node, fragment) {
  node.innerHTML = fragment.__raw;
};

// ---- attribute values ----------------------------------------------------------------------
/** A typed value ({"S": "x"}) as short text. */
K.show = function (v) {
  if (v == null) return '';
  const type = Object.keys(v)[0];
  const x = v[type];
  switch (type) {
    case 'S': case 'N': return String(x);
    case 'BOOL': return String(x);
    case 'NULL': return 'null';
    case 'B': return 'b64:' + x;
    case 'SS': case 'NS': case 'BS': return '{' + x.join(', ') + '}';
    case 'L': return '[' + x.map(K.show).join(', ') + ']';
    case 'M': return '{' + Object.keys(x).map(k => k + ': ' + K.show(x[k])).join(', ') + '}';
    default: return JSON.stringify(v);
  }
};

/** The scalar key value of an attribute, for prefix matching (S as is, N and B as text). */
K.scalar = function (v) {
  if (!v) return null;
  return v.S !== undefined ? v.S : v.N !== undefined ? v.N : v.B !== undefined ? v.B : null;
};

K.keyNames = function (keySchema) {
  const hash = keySchema.find(k => k.KeyType === 'HASH');
  const range = keySchema.find(k => k.KeyType === 'RANGE');
  return { pk: hash && hash.AttributeName, sk: range && range.AttributeName };
};

K.attributeType = function (table, name) {
  const d = (table.AttributeDefinitions || []).find(a => a.AttributeName === name);
  return d ? d.AttributeType : 'S';
};

K.typed = function (type, text) {
  const v = {}; v[type] = text; return v;
};

K.bytes = function (n) {
  if (n == null) return '—';
  if (n < 1024) return n + ' B';
  if (n < 1024 * 1024) return (n / 1024).toFixed(1) + ' KB';
  return (n / 1024 / 1024).toFixed(1) + ' MB';
};

/** The table's description and TTL, cached for the page's life (refreshed on table change). */
K.tableCache = {};
K.describe = async function (name, fresh) {
  if (!fresh && K.tableCache[name]) return K.tableCache[name];
  const [d, ttl] = await Promise.all([
    K.call('DescribeTable', { TableName: name }),
    K.call('DescribeTimeToLive', { TableName: name }).catch(() => null),
  ]);
  const t = d.Table;
  t.ttl = ttl && ttl.TimeToLiveDescription;
  K.tableCache[name] = t;
  return t;
};

/** Reads every page of a Query or Scan up to itemsMax items; returns items and the units used. */
K.readAll = async function (operation, request, itemsMax) {
  const items = [];
  let units = 0, pages = 0, last;
  do {
    const r = await K.call(operation, Object.assign({}, request, {
      ReturnConsumedCapacity: 'TOTAL',
      ExclusiveStartKey: last,
    }));
    pages++;
    units += r.ConsumedCapacity ? r.ConsumedCapacity.CapacityUnits : 0;
    (r.Items || []).forEach(i => items.length < itemsMax && items.push(i));
    last = r.LastEvaluatedKey;
  } while (last && items.length < itemsMax);
  return { items, units, pages, truncated: !!last };
};
