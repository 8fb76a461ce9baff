'use strict';
// Hot keys: requests and capacity per partition key over the last minutes (decayed with a
// one-minute time constant), and each key's busiest recent second against DynamoDB's
// per-partition limits of 3,000 RCU and 1,000 WCU a second.
(function () {
  const POLL_MILLIS = 2000;

  function bar(value, max) {
    const share = Math.min(1, value / max);
    return K.html`<div class="bar" title="${value} of ${max} per second"><i class="${share >= 0.8 ? 'hot' : ''}" style="width:${(share * 100).toFixed(1)}%"></i></div>`;
  }

  K.views.hotkeys = async function (node, t, params, g) {
    let timer = null, stopped = false;
    K.onLeave(() => { stopped = true; clearTimeout(timer); });
    const draw = async () => {
      const data = await K.getJson('/console/api/hot-keys');
      if (stopped || !K.current(g)) return;
      const all = params.all === 'yes';
      const keys = data.keys.filter(k => all || k.table === t.TableName);
      K.render(node, K.html`<h1>Hot keys · ${all ? 'all tables' : t.TableName}</h1>
        <p class="muted">Requests and units per partition key, weighted toward the last minutes; the bars are each key's busiest
          second of the last five minutes against DynamoDB's per-partition limits (${data.partitionReadUnitsPerSecondMax} RCU,
          ${data.partitionWriteUnitsPerSecondMax} WCU a second). Keys at ${data.nearLimitShare * 100}% or more are flagged.
          <a href="${K.link(t.TableName, 'hotkeys', all ? {} : { all: 'yes' })}">${all ? 'This table only' : 'All tables'}</a></p>
        ${keys.length ? K.html`<table id="hot-keys"><thead><tr><th>Table</th><th>Index</th><th>Partition key</th><th>Requests</th><th>RCU</th><th>WCU</th>
          <th>Peak RCU/s</th><th>Peak WCU/s</th><th></th></tr></thead><tbody>${keys.map(k => K.html`
          <tr class="${k.nearLimit ? 'hot' : ''}" data-key="${K.show(k.key)}"><td>${k.table}</td><td>${k.index || '—'}</td>
          <td class="mono">${K.show(k.key)}</td><td>${k.requests}</td><td>${k.readUnits}</td><td>${k.writeUnits}</td>
          <td>${k.readPeakPerSecond} ${bar(k.readPeakPerSecond, data.partitionReadUnitsPerSecondMax)}</td>
          <td>${k.writePeakPerSecond} ${bar(k.writePeakPerSecond, data.partitionWriteUnitsPerSecondMax)}</td>
          <td>${k.nearLimit ? K.html`<span class="badge hot">near limit</span>` : ''}</td></tr>`)}</tbody></table>`
          : K.html`<p class="muted">No key has been read or written lately.</p>`}`);
      timer = setTimeout(draw, POLL_MILLIS);
    };
    await draw();
  };
})();
