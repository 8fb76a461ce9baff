'use strict';
// Entity types of a single table, found from key prefixes: "CHATROOM#42" / "MESSAGE#2024-…" is
// the entity MESSAGE# under the partition prefix CHATROOM#. A model file (--console-model, the file
// `kumiko model check` reads) names them: the server sends each entity's key templates with a regular
// expression per key attribute, most specific entity first. The older file, names for key prefixes
// ({"entities": [{"name", "table"?, "pk", "sk"?}]}), is still served as it was written.
(function () {
  K.model = { entities: [] };

  K.loadModel = async function () {
    try { K.model = await K.getJson('/console/api/model'); } catch (e) { K.model = { entities: [] }; }
  };

  /** "CHATROOM#42" → "CHATROOM#"; a value without '#' is a constant ("METADATA") and is its own prefix. */
  K.prefixOf = function (text) {
    if (text == null) return '';
    const i = text.indexOf('#');
    return i < 0 ? text : text.slice(0, i + 1);
  };

  /** Partition-key values without a prefix (plain ids) are grouped together. */
  K.groupOf = function (pkText) {
    return pkText != null && pkText.indexOf('#') >= 0 ? K.prefixOf(pkText) : '(no prefix)';
  };

  const patterns = new Map();
  function matches(source, text) {
    if (source == null || text == null) return false;
    if (!patterns.has(source)) patterns.set(source, new RegExp(source));
    return patterns.get(source).test(text);
  }

  /** Whether an entity of the model file (templates) or of the older file (prefixes) has these keys. */
  function keysMatch(e, keys, pkText, skText) {
    if (e.match) {
      if (!matches(e.match[keys.pk], pkText)) return false;
      return keys.sk ? matches(e.match[keys.sk], skText) : !Object.keys(e.match).some(k => k !== keys.pk);
    }
    if (pkText == null || !pkText.startsWith(e.pk)) return false;
    return !e.sk || (skText != null && skText.startsWith(e.sk));
  }

  /**
   * The model's entity for an item. An entry with a table applies to that table; a model file's
   * entities also apply to a table the model does not name (its copy "…-dev", say) when their key
   * attributes are that table's, since the key templates alone say which items they are.
   */
  function modelEntity(tableName, keys, pkText, skText) {
    const all = K.model.entities || [];
    const named = all.some(e => e.table === tableName);
    for (const e of all) {
      if (e.table && e.table !== tableName && (named || !e.match)) continue;
      if (keysMatch(e, keys, pkText, skText)) return e;
    }
    return null;
  }

  /**
   * The entity of one item: {id, name, group, named}. Items of one entity share id; `named` says
   * whether the model file named it.
   */
  K.entityOf = function (table, item) {
    const keys = K.keyNames(table.KeySchema);
    const pkText = K.scalar(item[keys.pk]);
    const skText = keys.sk ? K.scalar(item[keys.sk]) : null;
    const group = K.groupOf(pkText);
    const m = modelEntity(table.TableName, keys, pkText, skText);
    if (m) return { id: 'model:' + m.name, name: m.name, group, named: true };
    const skPart = keys.sk ? K.prefixOf(skText) : '';
    const name = keys.sk ? skPart : group;
    return { id: group + ' ' + skPart, name, group, named: false };
  };

  /** Items grouped: [{group, entities: [{entity, items}]}], groups and entities in first-seen order. */
  K.classify = function (table, items) {
    const groups = new Map();
    for (const item of items) {
      const e = K.entityOf(table, item);
      if (!groups.has(e.group)) groups.set(e.group, new Map());
      const entities = groups.get(e.group);
      if (!entities.has(e.id)) entities.set(e.id, { entity: e, items: [] });
      entities.get(e.id).items.push(item);
    }
    return Array.from(groups, ([group, entities]) => ({ group, entities: Array.from(entities.values()) }));
  };

  /** Attribute names seen on these items, keys first. */
  K.attributeNames = function (table, items, max) {
    const keys = K.keyNames(table.KeySchema);
    const names = new Set([keys.pk, keys.sk].filter(Boolean));
    items.forEach(i => Object.keys(i).forEach(n => names.add(n)));
    return Array.from(names).slice(0, max || 12);
  };

  /** Characters of a value shown in a table cell before it is cut, with a button to see it whole. */
  const CELL_CHARS_SHOWN = 80;
  /** Characters of a cut value in its tooltip; the "whole" button shows all of it. */
  const TITLE_CHARS_MAX = 1000;

  /** A table cell for a value's text: cut past CELL_CHARS_SHOWN, with a button to see it whole. */
  K.cell = function (text, className) {
    const long = text.length > CELL_CHARS_SHOWN;
    return K.html`<td class="${className}${long ? ' long' : ''}"><code class="value" title="${long ? text.slice(0, TITLE_CHARS_MAX) : ''}">${text}</code>${long
      ? K.html`<button type="button" class="whole secondary" title="Show the whole value (${text.length} characters)">whole</button>` : ''}</td>`;
  };

  K.itemTable = function (table, items, columns) {
    const keys = K.keyNames(table.KeySchema);
    const cols = columns || K.attributeNames(table, items);
    const head = cols.map(c => K.html`<th>${c}</th>`);
    const rows = items.map(item => K.html`<tr data-item="${JSON.stringify(item)}">${cols.map(c =>
      K.cell(K.show(item[c]), c === keys.pk ? 'pk' : c === keys.sk ? 'sk' : ''))}</tr>`);
    return K.html`<div class="scroll-x"><table class="items"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>`;
  };

  // A cell's "whole" button, wherever an item table is: caught before the row's own click (which
  // opens the item), so that reading a value does not leave the page.
  document.addEventListener('click', ev => {
    const button = ev.target.closest && ev.target.closest('button.whole');
    if (!button) return;
    ev.stopPropagation();
    ev.preventDefault();
    const td = button.closest('td');
    const whole = td.classList.toggle('whole');
    button.textContent = whole ? 'less' : 'whole';
  }, true);
})();
