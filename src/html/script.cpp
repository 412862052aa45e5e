#include "html/draw.h"

namespace topdown::html {

// Mirrors timeline.cpp: the same columns (intervals [c*n/columns,
// (c+1)*n/columns)), the same means and the same scale (the largest mean
// rounded up to 10%, at least 10%), from the page's data. The flame graph's
// zoom mirrors flame.cpp's layout (x and width as fractions of the root)
// and its labels.
std::string_view page_script() {
  return R"JS(
(function () {
  'use strict';
  // One view: the page's, or on a page of core types one type's section,
  // whose ids start with its prefix.
  function view(root, prefix) {
    function byId(id) { return document.getElementById(prefix + id); }
    var data = JSON.parse(byId('td-data').textContent);
    var g = data.timeline;
    function y(value, top) {
      var v = value === null ? 0 : Math.min(Math.max(value, 0), 1);
      return g.line_top + g.line_height * (1 - v / top);
    }
    function redraw(node) {
      root.querySelectorAll('svg.timeline').forEach(function (svg) {
        var values = data.series[Number(svg.dataset.series)].values[node];
        var n = values.length, columns = Math.min(n, g.columns), means = [], top = 0.1;
        for (var c = 0; c < columns; c++) {
          var first = Math.floor(c * n / columns), last = Math.floor((c + 1) * n / columns), sum = 0, known = 0;
          for (var i = first; i < last; i++) {
            if (values[i] !== null) { sum += values[i] / data.value_scale; known++; }
          }
          var mean = known ? sum / known : null;
          if (mean !== null) top = Math.max(top, Math.ceil(Math.min(mean, 1) * 10) / 10);
          means.push(mean);
        }
        var points = [g.left.toFixed(1) + ',' + y(means[0], top).toFixed(1)];
        for (c = 0; c < columns; c++) {
          points.push((g.left + (c + 0.5) * g.width / columns).toFixed(1) + ',' + y(means[c], top).toFixed(1));
        }
        points.push((g.left + g.width).toFixed(1) + ',' + y(means[columns - 1], top).toFixed(1));
        svg.querySelector('.chosen-line').setAttribute('points', points.join(' '));
        svg.querySelector('.chosen-top').textContent = Math.round(top * 100) + '%';
        svg.querySelector('.chosen-name').textContent = data.nodes[node].name;
      });
    }
    var chooser = byId('chosen-node');
    if (chooser) {
      chooser.addEventListener('change', function () { redraw(Number(chooser.value)); });
      root.querySelectorAll('svg.icicle g.node').forEach(function (box) {
        box.addEventListener('click', function () {
          for (var n = 0; n < data.nodes.length; n++) {
            if (data.nodes[n].name === box.dataset.node) { chooser.value = String(n); redraw(n); }
          }
        });
      });
    }
    var unit = byId('unit-tree');
    function showTree(index) {
      if (!root.querySelector('.unit-tree[data-index="' + Number(index) + '"]')) return;  // not drawn
      if (unit) unit.value = String(index);
      root.querySelectorAll('.unit-tree').forEach(function (tree) { tree.hidden = tree.dataset.index !== String(index); });
      root.querySelectorAll('tr.function').forEach(function (row) {
        row.classList.toggle('selected', row.dataset.index === String(index));
      });
    }
    if (unit) unit.addEventListener('change', function () { showTree(unit.value); });
    root.querySelectorAll('tr.function').forEach(function (row) {
      row.addEventListener('click', function () { showTree(row.dataset.index); });
    });
    // The functions by share, samples or a node's slots, largest first, n/a
    // last; the whole program stays on top.
    var sorter = byId('function-sort');
    function sortKey(row, by) {
      if (by === 'share' || by === 'samples') return Number(row.dataset[by]);
      var slots = row.dataset.slots.split(' ')[Number(by)];
      return slots === '-' ? -Infinity : Number(slots);
    }
    function sortFunctions() {
      var body = root.querySelector('table.functions tbody');
      var rows = Array.prototype.slice.call(body.querySelectorAll('tr.function:not(.whole)'));
      rows.sort(function (a, b) {
        var d = sortKey(b, sorter.value) - sortKey(a, sorter.value);
        return d > 0 ? 1 : d < 0 ? -1 : Number(a.dataset.index) - Number(b.dataset.index);
      });
      rows.forEach(function (row) { body.appendChild(row); });
    }
    if (sorter) {
      sorter.addEventListener('change', sortFunctions);
      // A link may say the order: page.html#sort=share, #sort=samples or #sort=NODE.
      var linked = /^#sort=(.+)$/.exec(window.location.hash);
      if (linked) {
        var by = decodeURIComponent(linked[1]);
        data.nodes.forEach(function (node, n) { if (node.name === by) by = String(n); });
        if (/^(share|samples|[0-9]+)$/.test(by)) { sorter.value = by; sortFunctions(); }
      }
    }
    // The flame graph: click zooms into a frame (its ancestors shown faded
    // under it), the search box marks frames by name, and a node's share can
    // colour the frames instead of their largest level-1 node.
    var flame = data.flame;
    if (flame) {
      var frames = flame.frames;
      var boxes = root.querySelectorAll('svg.flame g.frame');
      function label(name, width) {  // flame.cpp's label, elide_middle's cut
        var room = Math.max(0, Math.floor((width - 6) / flame.char_width)), chars = Array.from(name);
        if (chars.length <= room) return name;
        if (room < flame.least_cut) return '';
        var head = Math.floor((room - 1) / 3), tail = room - 1 - head;
        return chars.slice(0, head).join('') + '\u2026' + chars.slice(chars.length - tail).join('');
      }
      function zoom(at) {
        var z = frames[at], eps = 1e-9;
        boxes.forEach(function (box) {
          var f = frames[Number(box.dataset.frame)];
          var inside = f.depth >= z.depth && f.x >= z.x - eps && f.x + f.width <= z.x + z.width + eps;
          var under = f.depth < z.depth && f.x <= z.x + eps && f.x + f.width >= z.x + z.width - eps;
          box.style.display = inside || under ? '' : 'none';
          box.classList.toggle('ancestor', under);
          if (!inside && !under) return;
          var x = inside && z.width > 0 ? (f.x - z.x) / z.width * flame.width : 0;
          var width = inside ? (z.width > 0 ? f.width / z.width : 0) * flame.width : flame.width;
          var rect = box.querySelector('rect'), text = box.querySelector('text');
          rect.setAttribute('x', x.toFixed(1));
          rect.setAttribute('width', width.toFixed(1));
          text.setAttribute('x', (x + 3).toFixed(1));
          text.textContent = label(f.name, width);
        });
      }
      boxes.forEach(function (box) {
        box.addEventListener('click', function () { zoom(Number(box.dataset.frame)); });
      });
      var search = byId('flame-search');
      var matched = byId('flame-matched');
      search.addEventListener('input', function () {
        var wanted = search.value.toLowerCase(), hit = [], share = 0;
        frames.forEach(function (f, i) { hit[i] = wanted !== '' && f.name.toLowerCase().indexOf(wanted) >= 0; });
        frames.forEach(function (f, i) {
          if (!hit[i]) return;
          for (var p = f.parent; p !== null; p = frames[p].parent) if (hit[p]) return;
          share += f.width;  // counted once where a match calls a match
        });
        boxes.forEach(function (box) { box.classList.toggle('match', hit[Number(box.dataset.frame)]); });
        matched.textContent = wanted === '' ? '' : (share * 100).toFixed(1) + '% of the clockticks match';
      });
      var colour = byId('flame-colour');
      colour.addEventListener('change', function () {
        boxes.forEach(function (box) {
          var rect = box.querySelector('rect');
          rect.style.fillOpacity = colour.value === '' ? '' : '1';
          if (colour.value === '') { rect.style.fill = ''; return; }
          var value = frames[Number(box.dataset.frame)].values[Number(colour.value)];
          var v = value === null ? 0 : Math.min(Math.max(value / data.value_scale, 0), 1);
          // White to deep red by the node's share of the frame's slots; n/a grey.
          rect.style.fill = value === null ? '#ccc' :
            'rgb(' + Math.round(255 - 63 * v) + ',' + Math.round(255 - 230 * v) + ',' + Math.round(255 - 220 * v) + ')';
        });
      });
    }
  }
  var views = document.querySelectorAll('.td-view');
  if (views.length === 0) view(document, '');
  views.forEach(function (root) { view(root, root.dataset.prefix); });
})();
)JS";
}

}  // namespace topdown::html
