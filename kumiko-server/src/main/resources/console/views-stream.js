'use strict';
// The stream tail: the table's stream records as they come, newest on top, polled once a second;
// deletes by the TTL service carry DynamoDB's service userIdentity and are marked.
(function () {
  const POLL_MILLIS = 1000;
  const ROWS_MAX = 200;

  function isTtl(r) {
    const u = r.userIdentity;   // the API's Identity shape: Type and PrincipalId
    return !!u && (u.Type || u.type) === 'Service' && (u.PrincipalId || u.principalId) === 'dynamodb.amazonaws.com';
  }

  function row(t, r) {
    const d = r.dynamodb || {};
    const when = d.ApproximateCreationDateTime ? new Date(d.ApproximateCreationDateTime * 1000).toISOString().slice(11, 19) : '';
    const keys = Object.entries(d.Keys || {}).map(([k, v]) => k + '=' + K.show(v)).join(' ');
    const image = d.NewImage || d.OldImage;
    return K.html`<tr data-event="${r.eventName}" data-ttl="${isTtl(r) ? 'yes' : 'no'}"><td class="mono">${when}</td>
      <td><span class="badge ${r.eventName === 'REMOVE' ? 'gray' : 'ok'}">${r.eventName}</span>
      ${isTtl(r) ? K.html`<span class="badge ttl" title="userIdentity: Service dynamodb.amazonaws.com">TTL</span>` : ''}</td>
      <td class="mono">${keys}</td><td class="mono">${d.SequenceNumber || ''}</td>
      <td class="mono">${image ? K.show({ M: image }).slice(0, 160) : ''}</td></tr>`;
  }

  K.views.stream = async function (node, t, params, g) {
    if (!t.LatestStreamArn || !(t.StreamSpecification && t.StreamSpecification.StreamEnabled)) {
      K.render(node, K.html`<h1>${t.TableName} · stream</h1><p class="muted">The table has no stream. Turn one on with
        UpdateTable (StreamSpecification).</p>`);
      return;
    }
    K.render(node, K.html`<h1>${t.TableName} · stream</h1>
      <p class="muted">${t.StreamSpecification.StreamViewType} · <span class="mono">${t.LatestStreamArn}</span> ·
        <span id="stream-status">reading from the oldest record</span></p>
      <table id="stream-records"><thead><tr><th>Time</th><th>Event</th><th>Keys</th><th>Sequence</th><th>Image</th></tr></thead><tbody></tbody></table>`);
    const body = node.querySelector('#stream-records tbody');
    const iterators = new Map();
    let timer = null, stopped = false;
    K.onLeave(() => { stopped = true; clearTimeout(timer); });
    const poll = async () => {
      try {
        const d = await K.call('DescribeStream', { StreamArn: t.LatestStreamArn }, true);
        for (const s of d.StreamDescription.Shards) {
          if (!iterators.has(s.ShardId)) {
            const it = await K.call('GetShardIterator', { StreamArn: t.LatestStreamArn, ShardId: s.ShardId,
              ShardIteratorType: 'TRIM_HORIZON' }, true);
            iterators.set(s.ShardId, it.ShardIterator);
          }
        }
        for (const [shard, it] of iterators) {
          if (!it) continue;
          const r = await K.call('GetRecords', { ShardIterator: it }, true);
          iterators.set(shard, r.NextShardIterator || null);
          r.Records.forEach(rec => body.insertAdjacentHTML('afterbegin', row(t, rec).__raw));
        }
        while (body.rows.length > ROWS_MAX) body.deleteRow(body.rows.length - 1);
        node.querySelector('#stream-status').textContent = 'live, ' + body.rows.length + ' records shown';
      } catch (e) {
        node.querySelector('#stream-status').textContent = e.message;
      }
      if (!stopped && K.current(g)) timer = setTimeout(poll, POLL_MILLIS);
    };
    poll();
  };
})();
