'use strict';
// A request as the AWS CLI, boto3 and the AWS SDK for Java v2 would send it, for copying into
// code: the same parameters, pointed at this server.
(function () {
  const endpoint = () => location.origin;

  function kebab(name) {
    return name.replace(/[A-Z]/g, (c, i) => (i ? '-' : '') + c.toLowerCase());
  }

  function shellQuote(s) {
    return "'" + String(s).replace(/'/g, "'\\''") + "'";
  }

  K.cli = function (operation, request) {
    const lines = ['aws dynamodb ' + kebab(operation) + ' --endpoint-url ' + endpoint() + ' --region ' + K.region];
    for (const [k, v] of Object.entries(request)) {
      if (v === undefined) continue;
      if (typeof v === 'boolean') {
        lines.push(v ? '--' + kebab(k) : '--no-' + kebab(k));
      } else if (typeof v === 'object') {
        lines.push('--' + kebab(k) + ' ' + shellQuote(JSON.stringify(v)));
      } else {
        lines.push('--' + kebab(k) + ' ' + (typeof v === 'number' ? v : shellQuote(v)));
      }
    }
    return lines.join(' \\\n    ');
  };

  function py(v, indent) {
    const pad = '    '.repeat(indent + 1), end = '    '.repeat(indent);
    if (v === true) return 'True';
    if (v === false) return 'False';
    if (v === null) return 'None';
    if (typeof v === 'number') return String(v);
    if (typeof v === 'string') return JSON.stringify(v);
    if (Array.isArray(v)) return '[' + v.map(x => py(x, indent)).join(', ') + ']';
    const entries = Object.entries(v).map(([k, x]) => pad + JSON.stringify(k) + ': ' + py(x, indent + 1));
    return '{\n' + entries.join(',\n') + '\n' + end + '}';
  }

  K.boto3 = function (operation, request) {
    const method = operation.replace(/[A-Z]/g, (c, i) => (i ? '_' : '') + c.toLowerCase());
    const args = Object.entries(request).filter(([, v]) => v !== undefined)
      .map(([k, v]) => '    ' + k + '=' + py(v, 1));
    return 'import boto3\n\nclient = boto3.client("dynamodb", endpoint_url="' + endpoint() + '", region_name="' +
      K.region + '")\nresponse = client.' + method + '(\n' + args.join(',\n') + '\n)';
  };

  function javaString(s) {
    return JSON.stringify(String(s));
  }

  function javaValue(v) {
    const type = Object.keys(v)[0], x = v[type];
    switch (type) {
      case 'S': return 'AttributeValue.fromS(' + javaString(x) + ')';
      case 'N': return 'AttributeValue.fromN(' + javaString(x) + ')';
      case 'BOOL': return 'AttributeValue.fromBool(' + x + ')';
      case 'NULL': return 'AttributeValue.fromNul(true)';
      case 'SS': return 'AttributeValue.fromSs(List.of(' + x.map(javaString).join(', ') + '))';
      case 'NS': return 'AttributeValue.fromNs(List.of(' + x.map(javaString).join(', ') + '))';
      case 'L': return 'AttributeValue.fromL(List.of(' + x.map(javaValue).join(', ') + '))';
      case 'M': return 'AttributeValue.fromM(' + javaMap(x, javaValue) + ')';
      default: return '/* ' + type + ' */ null';
    }
  }

  function javaMap(m, valueOf) {
    const entries = Object.entries(m).map(([k, v]) => javaString(k) + ', ' + valueOf(v));
    return 'Map.of(' + entries.join(', ') + ')';
  }

  const TYPES = ['S', 'N', 'B', 'BOOL', 'NULL', 'SS', 'NS', 'BS', 'L', 'M'];
  const isTyped = x => x && typeof x === 'object' && Object.keys(x).length === 1 && TYPES.includes(Object.keys(x)[0]);

  const ENUMS = { ReturnConsumedCapacity: 'ReturnConsumedCapacity', Select: 'Select', ReturnValues: 'ReturnValue' };
  const ITEM_MAPS = ['Key', 'Item', 'ExclusiveStartKey', 'ExpressionAttributeValues'];

  K.java = function (operation, request) {
    const type = operation + 'Request';
    const lines = [];
    for (const [k, v] of Object.entries(request)) {
      if (v === undefined) continue;
      const method = k.charAt(0).toLowerCase() + k.slice(1);
      let arg;
      if (ENUMS[k]) arg = ENUMS[k] + '.' + v;
      else if (ITEM_MAPS.includes(k)) arg = javaMap(v, javaValue);
      else if (k === 'ExpressionAttributeNames') arg = javaMap(v, javaString);
      else if (Array.isArray(v) && v.every(isTyped)) arg = 'List.of(' + v.map(javaValue).join(', ') + ')';
      else if (typeof v === 'object') return null; // nested shapes (CreateTable's): the CLI and boto3 forms say it
      else if (typeof v === 'string') arg = javaString(v);
      else arg = String(v);
      lines.push('        .' + method + '(' + arg + ')');
    }
    const client = 'DynamoDbClient client = DynamoDbClient.builder()\n' +
      '        .endpointOverride(URI.create("' + endpoint() + '"))\n' +
      '        .region(Region.of("' + K.region + '"))\n        .build();\n';
    return client + operation + 'Response response = client.' + operation.charAt(0).toLowerCase() +
      operation.slice(1) + '(' + type + '.builder()\n' + lines.join('\n') + '\n        .build());';
  };

  /** The three forms as a tabbed block; `id` keeps several blocks on one page apart. */
  K.codeBlock = function (operation, request) {
    const forms = { 'AWS CLI': K.cli, 'boto3': K.boto3, 'SDK for Java v2': K.java };
    const texts = Object.keys(forms).map(n => [n, forms[n](operation, request)]).filter(([, text]) => text !== null);
    return K.html`<div class="code"><div class="codetabs">${texts.map(([n], i) =>
      K.html`<a data-form="${i}" class="${i === 0 ? 'current' : ''}">${n}</a>`)}</div>${texts.map(([n, text], i) =>
      K.html`<pre data-form="${i}" data-code="${n}" ${K.raw(i === 0 ? '' : 'hidden')}>${text}</pre>`)}</div>`;
  };

  K.wireCodeTabs = function (root) {
    root.querySelectorAll('.code').forEach(block => {
      block.querySelectorAll('.codetabs a').forEach(a => a.addEventListener('click', () => {
        block.querySelectorAll('.codetabs a').forEach(x => x.classList.toggle('current', x === a));
        block.querySelectorAll('pre').forEach(p => { p.hidden = p.dataset.form !== a.dataset.form; });
      }));
    });
  };
})();
