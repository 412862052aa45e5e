#include "html/draw.h"

namespace topdown::html {

// Mirrors timeline.cpp: the same columns (intervals [c*n/columns,
// (c+1)*n/columns)), the same means and the same scale (the largest mean
// rounded up to 10%, at least 10%), from the page's data.
std::string_view page_script() {
  return R"JS(
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('td-data').textContent);
  var g = data.timeline;
  function y(value, top) {
    var v = value === null ? 0 : Math.min(Math.max(value, 0), 1);
    return g.line_top + g.line_height * (1 - v / top);
  }
  function redraw(node) {
    document.querySelectorAll('svg.timeline').forEach(function (svg) {
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
  var chooser = document.getElementById('chosen-node');
  if (chooser) {
    chooser.addEventListener('change', function () { redraw(Number(chooser.value)); });
    document.querySelectorAll('svg.icicle g.node').forEach(function (box) {
      box.addEventListener('click', function () {
        for (var n = 0; n < data.nodes.length; n++) {
          if (data.nodes[n].name === box.dataset.node) { chooser.value = String(n); redraw(n); }
        }
      });
    });
  }
  var unit = document.getElementById('unit-tree');
  if (unit) {
    unit.addEventListener('change', function () {
      document.querySelectorAll('.unit-tree').forEach(function (tree) { tree.hidden = tree.dataset.index !== unit.value; });
    });
  }
})();
)JS";
}

}  // namespace topdown::html
