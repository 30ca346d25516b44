// Draws an llmload report page (run, sweep or comparison) from the JSON in #llmload-data.
// Every string from the server or the user reaches the page through textContent, never as markup.
// When done, #llmload-selfcheck holds what was drawn and any errors, for the browser tests.
(function () {
  'use strict';

  var COLORS = ['#2a62c9', '#d9480f', '#2b8a3e', '#7048e8', '#c2255c', '#0b7285', '#e67700', '#5c940d'];
  var MARK = '#868e96';
  var SLO = '#b3261e';
  /** Titles and units of the server telemetry columns (timeseries.csv's names); others keep their own name. */
  var TELEMETRY = {
    kv_cache_usage: ['KV cache in use', 'share, 0\u20131'],
    server_requests_running: ['Requests running at the server', 'requests'],
    server_requests_waiting: ['Requests waiting at the server', 'requests'],
    gpu_util: ['GPU utilisation, mean over GPUs', '%'],
    gpu_mem_used_gib: ['GPU memory in use, all GPUs', 'GiB']
  };
  var LATENCIES = [
    ['ttft_ms', 'TTFT', 'ms'], ['itl_ms', 'ITL', 'ms'], ['tpot_ms', 'TPOT', 'ms'], ['e2e_latency_ms', 'E2E latency', 'ms']];
  // Each summary row: its key in results, its name, and what it measures (the row's title on hover).
  var SUMMARIES = [
    ['ttft_ms', 'TTFT (ms)', 'time to first token: the first stream event carrying generated text, from the send'],
    ['ttfc_ms', 'Time to first content (ms)', 'the first event carrying answer text (not reasoning), from the send'],
    ['itl_ms', 'ITL per event (ms)', 'gaps between consecutive token-bearing events, first token excluded, pooled'],
    ['itl_per_token_ms', 'ITL per token (ms)', 'the same gaps spread over the tokens each event carried'],
    ['tpot_ms', 'TPOT (ms)', 'time per output token: per request (E2E \u2212 TTFT) / (output tokens \u2212 1)'],
    ['e2e_latency_ms', 'E2E latency (ms)', 'the last token-bearing event (or the end of an unstreamed response), from the send'],
    ['ttst_ms', 'Time to second token (ms)', 'per request, the second token-bearing event minus the first (AIPerf\u2019s TTST)'],
    ['output_token_throughput_per_user', 'Output tokens/s per user',
      'per request 1000 / TPOT: the decode speed one user sees after the first token (AIPerf\u2019s per-user throughput)'],
    ['client_queue_time_ms', 'Client queue time (ms)', 'actual send minus intended send: waiting at the gate or behind the schedule'],
    ['ttft_from_intended_ms', 'TTFT from intended send (ms)', 'TTFT counted from the intended send: what a user arriving on schedule felt'],
    ['e2e_from_intended_ms', 'E2E from intended send (ms)', 'E2E latency counted from the intended send'],
    ['input_tokens', 'Input tokens', 'the server\u2019s usage.prompt_tokens, else the workload\u2019s own count'],
    ['output_tokens', 'Output tokens', 'the server\u2019s usage.completion_tokens, else the local tokenizer\u2019s count']];
  /** What each row of the record panels says, shown on hover (the row's title). */
  var EXPLAIN = {
    'name': 'the model served, as the server names it', 'parameters': 'the model\u2019s parameter count',
    'precision': 'the weights\u2019 number format', 'quantization': 'how the weights were quantised',
    'url': 'the server the requests went to', 'api': 'the API llmload spoke (--api)',
    'framework': 'the serving engine, as it reports itself', 'version': 'the serving engine\u2019s version',
    'launch args': 'how the server was started (--metadata service.launch_args)',
    'streaming': 'whether answers were streamed (TTFT and ITL need it)',
    'GPU': 'the server\u2019s GPU model', 'GPU count': 'GPUs serving the model',
    'GPU memory (GiB)': 'memory of one GPU', 'CPU': 'the server\u2019s CPU', 'RAM (GiB)': 'the server\u2019s memory',
    'mode': 'closed loop (a fixed number in flight) or open loop (a request rate)',
    'concurrency': 'requests kept in flight by the closed loop', 'request rate (req/s)': 'the open loop\u2019s rate',
    'arrival': 'how the open loop spaces its sends (poisson, gamma, constant)',
    'burstiness': 'the gamma arrivals\u2019 shape: below 1 burstier than Poisson',
    'max concurrency': 'the most requests in flight the open loop allows; the rest wait at the client',
    'requests': 'the run\u2019s bound on requests (--num-requests)', 'duration (s)': 'the run\u2019s bound on time (--duration)',
    'warm-up requests': 'requests sent first and left out of every statistic',
    'source': 'where the prompts came from', 'content hash': 'a hash of the prompts: equal hashes, equal prompts',
    'input tokens': 'the prompt lengths asked for, and measured', 'output tokens': 'the answer lengths asked for, and measured',
    'id': 'the run\u2019s id (its directory\u2019s name)', 'started': 'when the run started (UTC)',
    'ended': 'when the run ended (UTC)', 'command line': 'the command that ran it, secrets redacted',
    'seed': 'seeds the prompts, lengths and arrivals: the same seed, the same workload',
    'interrupted': 'whether the run was stopped before its bounds (Ctrl-C, SIGTERM)',
    'client': 'the machine llmload ran on',
    'attempted / succeeded / failed / timed out': 'measured requests: sent, answered in full, failed (any class), of those timed out',
    'success rate': 'succeeded / attempted', 'error rate': 'failed / attempted', 'timeout rate': 'timed out / attempted',
    'duration (s)': 'the first intended send of the measured requests to their last completion',
    'request throughput (req/s)': 'succeeded requests / duration',
    'output token throughput (tokens/s)': 'output tokens of succeeded requests / duration: the system\u2019s rate, all users together',
    'total token throughput (tokens/s)': 'input and output tokens of succeeded requests / duration',
    'offered concurrency': 'the requests the closed loop kept in flight',
    'offered / scheduled rate (req/s)': 'the rate asked for, and the rate the schedule drew',
    'arrival window (s)': 'from the first intended send to the last',
    'achieved request rate (req/s)': 'requests ended per second over the arrival window',
    'backlog at last arrival: in flight / queued': 'requests at the server and waiting at the client when the last was due',
    'backlog of a server keeping up': 'the backlog a server serving the offered load would have (Little\u2019s law)',
    'drain after last arrival (s)': 'how long the backlog took to finish after the last arrival',
    'saturated': 'whether the server fell behind the offered load (its backlog grew past a keeping-up one)',
    'window (s from start)': 'the steady stretch MSER-5 found, after the start-up transient',
    'window': 'the steady stretch MSER-5 looks for, after the start-up transient',
    'TTFT p50 / p99 (ms)': 'in the steady window, and over the whole run',
    'TPOT p50 / p99 (ms)': 'in the steady window, and over the whole run',
    'E2E p50 / p99 (ms)': 'in the steady window, and over the whole run',
    'limits': 'the --slo limits a request must all meet',
    'requests meeting them / attempted': 'succeeded requests within every limit, of all measured',
    'request goodput (req/s)': 'requests meeting the SLO / duration',
    'output token goodput (tokens/s)': 'output tokens of requests meeting the SLO / duration'
  };
  // Percentile columns with the sample count below which each is an interpolation towards the maximum.
  var PERCENTILES = [['p50', 'p50', 2], ['p90', 'p90', 10], ['p95', 'p95', 20], ['p99', 'p99', 100], ['p99_9', 'p99.9', 1000]];

  var charts = [];
  var content = document.getElementById('content');

  // ---- DOM, text only ----

  function el(tag, className, children) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === 'object' && child !== null ? child : document.createTextNode(text(child)));
    });
    return node;
  }

  function text(value) {
    return value === null || value === undefined || value === '' ? '–' : String(value);
  }

  function section(title, caption) {
    var node = el('section', null, [el('h2', null, [title])]);
    if (caption) node.appendChild(el('p', 'caption', [caption]));
    content.appendChild(node);
    return node;
  }

  /** A table whose columns from textColumns on (when given) hold numbers, aligned right. */
  function table(head, rows, textColumns) {
    function numeric(i) { return textColumns !== undefined && i >= textColumns; }
    var headRow = el('tr', null, head.map(function (h, i) { return el('th', numeric(i) ? 'num' : null, [h]); }));
    var body = rows.map(function (row) {
      return el('tr', null, row.map(function (cell, i) {
        if (cell && cell.node) return el('td', cell.className || null, [cell.node]);
        if (cell && cell.low !== undefined) return el('td', 'num' + (cell.low ? ' low' : ''), [cell.value]);
        return el('td', numeric(i) ? 'num' : null, [cell]);
      }));
    });
    return el('div', 'wide', [el('table', null, [el('thead', null, [headRow]), el('tbody', null, body)])]);
  }

  /** No value: none given, or the dash the number formats write for one. */
  function empty(value) {
    return value === null || value === undefined || value === '' || value === '\u2013';
  }

  /**
   * A titled panel of key and value rows, each explained on hover (EXPLAIN, or the pair's own third
   * element); rows without a value are left out, and a panel left with none is null (folded away).
   */
  function keyValues(title, pairs) {
    var shown = pairs.filter(function (pair) { return !empty(pair[1]); });
    if (shown.length === 0) return null;
    return el('div', null, [el('h3', null, [title]), el('table', 'kv', shown.map(function (pair) {
      var row = el('tr', null, [el('td', null, [pair[0]]), el('td', null, [pair[1]])]);
      row.title = pair[2] || EXPLAIN[pair[0]] || '';
      return row;
    }))]);
  }

  function tiles(parent, items) {
    parent.appendChild(el('div', 'tiles', items.map(function (item) {
      return el('div', 'tile' + (item[2] ? ' bad' : ''), [el('div', 'value', [item[1]]), el('div', 'label', [item[0]])]);
    })));
  }

  // ---- numbers ----

  function num(value, digits) {
    if (value === null || value === undefined || !isFinite(value)) return '–';
    if (digits === undefined) digits = Math.abs(value) >= 100 ? 1 : Math.abs(value) >= 10 ? 2 : 3;
    return Number(value).toLocaleString('en-US', {minimumFractionDigits: digits, maximumFractionDigits: digits});
  }

  function percent(value) {
    return value === null || value === undefined ? '–' : num(value * 100, 2) + ' %';
  }

  function get(object, path) {
    return path.split('.').reduce(function (o, key) { return o === null || o === undefined ? o : o[key]; }, object);
  }

  /** The p-th percentile of ascending values, interpolated like numpy.percentile (as the Java side). */
  function percentileOf(sorted, p) {
    var rank = p / 100 * (sorted.length - 1);
    var below = Math.floor(rank), above = Math.ceil(rank);
    return sorted[below] + (sorted[above] - sorted[below]) * (rank - below);
  }

  /** Spectra are drawn against log10(1/(1 − p)): 0 is p0, 1 is p90, 2 is p99, 3 is p99.9. */
  function tailPosition(p) {
    return Math.log10(100 / (100 - p));
  }

  function percentLabel(position) {
    var p = 100 - 100 / Math.pow(10, position);
    return (Math.round(p * 1000) / 1000) + '%';
  }

  function describeLoad(load) {
    if (!load) return '–';
    var parts = [load.mode];
    if (load.concurrency !== null && load.concurrency !== undefined) parts.push('concurrency ' + load.concurrency);
    if (load.request_rate !== null && load.request_rate !== undefined) parts.push(load.request_rate + ' req/s');
    if (load.arrival) parts.push(load.arrival + (load.burstiness ? ' (burstiness ' + load.burstiness + ')' : ''));
    if (load.max_concurrency) parts.push('max concurrency ' + load.max_concurrency);
    return parts.filter(function (p) { return p !== null && p !== undefined; }).join(', ');
  }

  // ---- charts ----

  /** A uPlot chart in its own titled box; data columns as uPlot wants them (x first). */
  function chart(parent, id, title, caption, opts, columns) {
    var box = el('div', 'chart', [el('h3', null, [title])]);
    if (caption) box.appendChild(el('p', 'caption', [caption]));
    var plot = el('div', 'plot');
    box.appendChild(plot);
    parent.appendChild(box);
    opts.width = Math.max(300, plot.clientWidth || 600);
    opts.height = opts.height || 240;
    opts.legend = opts.legend || {live: true};
    // A series of a single value (a run shorter than two scrapes) has no line to draw: show its point.
    opts.series.forEach(function (s, i) {
      if (i > 0 && columns[i] && columns[i].filter(function (v) { return v !== null && v !== undefined; }).length === 1) {
        s.points = {show: true, size: 7};
      }
    });
    // The legend shows values under the cursor, and nothing (not uPlot's "--") while there is none.
    opts.series.forEach(function (s) {
      if (typeof s.value === 'string') return;
      var own = s.value;
      s.value = function (u, v, seriesIdx, dataIdx) {
        if (dataIdx === null || dataIdx === undefined) return '';
        return own ? own(u, v, seriesIdx, dataIdx) : v === null || v === undefined ? '' : num(v);
      };
    });
    var colors = opts.series.slice(1).map(function (s) { return rgb(s.stroke); }).filter(function (c) { return c; });
    var u = new uPlot(opts, columns, plot);
    charts.push({id: id, title: title, plot: u, box: plot, colors: colors});
    return u;
  }

  function line(label, color, extra) {
    var s = {label: label, stroke: color, width: 2, spanGaps: true, points: {show: false}};
    for (var key in extra || {}) s[key] = extra[key];
    return s;
  }

  function axis(label, extra) {
    var a = {label: label, size: 60, labelSize: 18, grid: {stroke: '#eceef2'}, ticks: {stroke: '#d0d4db'}};
    for (var key in extra || {}) a[key] = extra[key];
    return a;
  }

  function fromZero(u, min, max) {
    return [0, max > 0 ? max * 1.08 : 1];
  }

  /** Value against percentile, on a log axis of 1/(1 − p), for one or several spectra. */
  function spectrumChart(parent, id, title, unit, entries) {
    entries = entries.filter(function (e) { return e.spectrum && e.spectrum.values.length > 0; });
    if (entries.length === 0) {
      parent.appendChild(el('div', 'chart', [el('h3', null, [title]), el('p', 'caption', ['No samples.'])]));
      return;
    }
    var tables = entries.map(function (e) {
      return [e.spectrum.percentiles.map(tailPosition), e.spectrum.values];
    });
    var columns = tables.length === 1 ? tables[0] : uPlot.join(tables);
    var coarse = entries.some(function (e) { return !e.spectrum.exact; });
    chart(parent, id, title, coarse ? 'Dots: only the percentiles kept in report.json.' : null, {
      scales: {x: {time: false, range: function (u, min, max) { return [0, Math.max(1, max)]; }},
        y: {range: fromZero}},
      axes: [
        axis('percentile', {
          splits: function (u, i, min, max) {
            return [0, Math.log10(2), 1, 2, 3, 4, 5, 6, 7].filter(function (x) { return x >= min && x <= max + 1e-9; });
          },
          values: function (u, splits) { return splits.map(percentLabel); }
        }),
        axis(unit)],
      series: [{label: 'percentile', value: function (u, x) { return x === null ? '–' : percentLabel(x); }}]
        .concat(entries.map(function (e, i) {
          return line(e.label, COLORS[i % COLORS.length], {
            points: {show: !e.spectrum.exact, size: 6},
            value: function (u, v) { return num(v); }
          });
        }))
    }, columns);
  }

  function barsChart(parent, id, title, caption, xLabel, yLabel, bins, color) {
    chart(parent, id, title, caption, {
      scales: {x: {time: false, range: function (u, min, max) { return [min - bins.width / 2, max + bins.width / 2]; }},
        y: {range: fromZero}},
      axes: [axis(xLabel), axis(yLabel)],
      series: [{label: xLabel}, {label: yLabel, stroke: color, fill: color, width: 1,
        paths: uPlot.paths.bars({size: [0.92, Infinity], align: 0}), points: {show: false}}]
    }, [bins.x, bins.y]);
  }

  /** Equal-width bins over integer values: one per value when the range is narrow. */
  function histogram(values) {
    var min = Infinity, max = -Infinity;
    values.forEach(function (v) { if (v < min) min = v; if (v > max) max = v; });
    var width = Math.max(1, Math.ceil((max - min + 1) / 40));
    var count = Math.floor((max - min) / width) + 1;
    var x = [], y = [];
    for (var i = -1; i <= count; i++) { x.push(min + i * width + (width - 1) / 2); y.push(0); }
    values.forEach(function (v) { y[Math.floor((v - min) / width) + 1]++; });
    return {x: x, y: y, width: width};
  }

  /** Vertical dashed lines at x positions, labelled, drawn over a chart. */
  function verticalMarkers(markers) {
    return {hooks: {draw: [function (u) {
      var ctx = u.ctx;
      markers.forEach(function (m) {
        var x = Math.round(u.valToPos(m.x, 'x', true));
        if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) return;
        ctx.save();
        ctx.strokeStyle = m.color;
        ctx.fillStyle = m.color;
        ctx.lineWidth = 1.5 * uPlot.pxRatio;
        ctx.setLineDash([6 * uPlot.pxRatio, 4 * uPlot.pxRatio]);
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
        ctx.font = (11 * uPlot.pxRatio) + 'px system-ui, sans-serif';
        ctx.textAlign = 'right';
        ctx.fillText(m.label, x - 4 * uPlot.pxRatio, u.bbox.top + 12 * uPlot.pxRatio);
        ctx.restore();
      });
    }]}};
  }

  // ---- shared tables ----

  function summaryRows(results, keys) {
    return keys.filter(function (k) { return results[k[0]]; }).map(function (k) {
      var s = results[k[0]];
      return [k[2] ? {node: explained(k[1], k[2])} : k[1], String(s.count), num(s.mean), num(s.std), num(s.min)]
        .concat(PERCENTILES.map(function (p) { return {value: num(s[p[0]]), low: s.count > 0 && s.count < p[2]}; }))
        .concat([num(s.max)]);
    });
  }

  /** A row name with its explanation on hover. */
  function explained(name, explanation) {
    var span = el('span', null, [name]);
    span.title = explanation;
    return span;
  }

  /** A percentile's table cell, marked (*) where report.json lists it as resting on too few samples. */
  function pcell(results, family, p) {
    var s = (results || {})[family] || {};
    return {value: num(s[p]), low: (s.low_confidence || []).indexOf(p) >= 0};
  }

  function summaryTable(results) {
    return table(['metric', 'count', 'mean', 'std', 'min'].concat(PERCENTILES.map(function (p) { return p[1]; }), ['max']),
      summaryRows(results, SUMMARIES), 1);
  }

  function recordTables(report) {
    var model = report.model || {}, service = report.service || {}, hardware = report.hardware || {},
      load = report.load || {}, data = report.data || {}, run = report.run || {}, client = run.client || {};
    function shape(t) {
      if (!t) return '–';
      var m = t.measured || {};
      return (t.requested ? t.requested + '; ' : '') + 'measured mean ' + num(m.mean, 1) + ', p50 ' + num(m.p50, 0)
        + ', p99 ' + num(m.p99, 0) + ' (n=' + text(m.count) + ')';
    }
    // The model's name heads the page: a panel of it alone (the simulator's) says nothing more.
    var modelDetails = [['parameters', model.parameters], ['precision', model.precision],
      ['quantization', model.quantization]];
    var boxes = [
      modelDetails.every(function (pair) { return empty(pair[1]); }) ? null
        : keyValues('Model', [['name', model.name]].concat(modelDetails)),
      keyValues('Service', [['url', service.url], ['api', service.api], ['framework', service.framework],
        ['version', service.version], ['launch args', service.launch_args],
        ['streaming', service.streaming === undefined ? null : String(service.streaming)]]),
      keyValues('Hardware (server)', [['GPU', hardware.gpu_model], ['GPU count', hardware.gpu_count],
        ['GPU memory (GiB)', hardware.gpu_memory_gib], ['CPU', hardware.cpu], ['RAM (GiB)', hardware.ram_gib]]),
      keyValues('Load', [['mode', load.mode], ['concurrency', load.concurrency], ['request rate (req/s)', load.request_rate],
        ['arrival', load.arrival], ['burstiness', load.burstiness], ['max concurrency', load.max_concurrency],
        ['requests', load.num_requests], ['duration (s)', load.duration_s], ['warm-up requests', load.warmup]]),
      keyValues('Data', [['source', data.source], ['content hash', data.content_hash],
        ['input tokens', shape(data.input_tokens)], ['output tokens', shape(data.output_tokens)]]),
      keyValues('Run', [['id', run.id], ['started', run.started_at], ['ended', run.ended_at],
        ['command line', run.command_line], ['seed', run.seed],
        ['interrupted', run.interrupted === undefined ? null : String(run.interrupted)],
        ['client', [client.cpu, client.cores ? client.cores + ' cores' : null,
          client.ram_gib ? client.ram_gib + ' GiB' : null, client.os, client.jvm]
          .filter(function (v) { return v; }).join(', ')]])];
    var metadata = get(report, 'config.metadata');
    if (metadata && Object.keys(metadata).length > 0) {
      boxes.push(keyValues('Metadata', Object.keys(metadata).sort().map(function (k) {
        return [k, metadata[k], 'given with --metadata ' + k];
      })));
    }
    return el('div', 'records', boxes.filter(function (box) { return box !== null; }));
  }

  // ---- run page ----

  /** Cost and energy per token, only those report.json has (it never guesses a price or a power). */
  function efficiencyTiles(e) {
    if (!e) return [];
    var items = [];
    if (e.cost_per_million_output_tokens !== null && e.cost_per_million_output_tokens !== undefined) {
      items.push(['cost per 1M output tokens (' + e.currency + ')', num(e.cost_per_million_output_tokens)]);
    }
    if (e.energy_per_output_token_joules !== null && e.energy_per_output_token_joules !== undefined) {
      items.push(['energy per output token (J); GPU power ' + num(e.gpu_power_watts) + ' W, idle '
        + num(e.gpu_idle_power_watts) + ' W', num(e.energy_per_output_token_joules)]);
    }
    return items;
  }

  /** A session run: what the sessions took, where their time went, and TTFT by turn and by context length. */
  function sessionTables(parent, sessions, hitRate) {
    var duration = sessions.duration_ms || {};
    parent.appendChild(keyValues('Sessions (every subagent counts as one)', [
      ['sessions / all turns succeeded', text(sessions.sessions) + ' / ' + text(sessions.sessions_all_succeeded)],
      ['turns (per session mean / max)', text(sessions.turns) + ' (' + num(sessions.turns_per_session_mean) + ' / '
        + text(sessions.turns_per_session_max) + ')'],
      ['session duration p50 / p99 (ms)', num(duration.p50) + ' / ' + num(duration.p99)],
      ['in server / between calls per session (ms, mean)', num(sessions.server_ms_mean) + ' / '
        + num(sessions.between_calls_ms_mean) + ' (server ' + percent(sessions.server_share) + ')'],
      ['agent tasks: a root session with its subagents (turns per task mean / max)', text(get(sessions, 'tasks.tasks'))
        + ' (' + num(get(sessions, 'tasks.turns_per_task_mean')) + ' / ' + text(get(sessions, 'tasks.turns_per_task_max')) + ')'],
      ['task duration p50 / p99 (ms)', num(get(sessions, 'tasks.duration_ms.p50')) + ' / '
        + num(get(sessions, 'tasks.duration_ms.p99'))],
      ['task in server / waiting (ms, mean)', num(get(sessions, 'tasks.server_ms_mean')) + ' / '
        + num(get(sessions, 'tasks.waiting_ms_mean')) + ' (server ' + percent(get(sessions, 'tasks.server_share')) + ')'],
      ['prefix reuse: intended by the workload / server cache hit rate (scraped)',
        percent(sessions.intended_prefix_share) + ' / ' + percent(hitRate)]]));
    parent.appendChild(el('h3', null, ['By turn (successful turns)']));
    parent.appendChild(table(['turn', 'count', 'TTFT p50 (ms)', 'TTFT p99 (ms)', 'TPOT p50 (ms)', 'ITL p50 (ms)',
      'ITL p99 (ms)'],
      (sessions.by_turn || []).map(function (t) {
        return [text(t.turn), text(t.count), num(get(t, 'ttft_ms.p50')), num(get(t, 'ttft_ms.p99')),
          num(get(t, 'tpot_ms.p50')), num(get(t, 'itl_ms.p50')), num(get(t, 'itl_ms.p99'))];
      }), 0));
    // The table and, beside it, the same percentiles drawn against the bins' upper ends.
    var contexts = sessions.by_context || [];
    var grid = el('div', 'grid');
    parent.appendChild(grid);
    grid.appendChild(el('div', null, [el('h3', null, ['TTFT by input length (successful turns)']),
      table(['input tokens', 'count', 'TTFT p50 (ms)', 'TTFT p90 (ms)', 'TTFT p99 (ms)'],
        contexts.map(function (c) {
          return [text(c.from_tokens) + ' to ' + text(c.to_tokens), text(c.count), num(get(c, 'ttft_ms.p50')),
            num(get(c, 'ttft_ms.p90')), num(get(c, 'ttft_ms.p99'))];
        }), 1)]));
    if (contexts.length > 0) sessionContextChart(grid, contexts);
  }

  /** TTFT p50 / p90 / p99 of each input-length bin at the bin's upper end, on a log2 axis (the bins double). */
  function sessionContextChart(grid, contexts) {
    function tokens(x) { return text(Math.round(Math.pow(2, x))); }
    chart(grid, 'session-ttft-context', 'TTFT against input length', 'Each input-length bin of the table at its'
      + ' upper end (tokens, log scale): how TTFT grows with the context.', {
        scales: {x: {time: false, range: function (u, min, max) { return [min - 0.5, max + 0.5]; }},
          y: {range: fromZero}},
        axes: [axis('input tokens (bin end)', {
          splits: function (u, i, min, max) {
            var splits = [];
            for (var x = Math.ceil(min); x <= max; x++) splits.push(x);
            return splits;
          },
          values: function (u, splits) { return splits.map(tokens); }
        }), axis('ms')],
        series: [{label: 'input tokens', value: function (u, x) { return x === null ? '–' : tokens(x); }},
          line('p50', COLORS[0], {points: {show: true, size: 5}}),
          line('p90', COLORS[2], {points: {show: true, size: 5}}),
          line('p99', COLORS[1], {points: {show: true, size: 5}})]
      }, [contexts.map(function (c) { return Math.log2(c.to_tokens); }),
        contexts.map(function (c) { return get(c, 'ttft_ms.p50'); }),
        contexts.map(function (c) { return get(c, 'ttft_ms.p90'); }),
        contexts.map(function (c) { return get(c, 'ttft_ms.p99'); })]);
  }

  function runPage(data) {
    var report = data.report, results = report.results || {}, requests = data.requests;
    var modelName = get(report, 'model.name') || 'unknown model';
    setTitle(modelName, ['llmload run report', get(report, 'run.id'), get(report, 'run.started_at'),
      get(report, 'service.framework')]);

    var top = section('Summary');
    var counts = results.requests || {};
    tiles(top, [
      ['requests succeeded / attempted', text(counts.succeeded) + ' / ' + text(counts.attempted), counts.failed > 0],
      ['request throughput (req/s)', num(results.request_throughput)],
      ['output tokens/s', num(results.output_token_throughput)],
      ['TTFT p50 / p99 (ms)', num(get(results, 'ttft_ms.p50')) + ' / ' + num(get(results, 'ttft_ms.p99'))],
      ['TPOT p50 / p99 (ms)', num(get(results, 'tpot_ms.p50')) + ' / ' + num(get(results, 'tpot_ms.p99'))],
      ['E2E p50 / p99 (ms)', num(get(results, 'e2e_latency_ms.p50')) + ' / ' + num(get(results, 'e2e_latency_ms.p99'))]]
      .concat(goodputTiles(results.goodput))
      .concat(efficiencyTiles(report.efficiency))
      .concat(report.saturation && report.saturation.saturated !== null && report.saturation.saturated !== undefined
        ? [[report.saturation.saturated ? 'SATURATED: achieved / scheduled req/s' : 'achieved / scheduled req/s',
          num(report.saturation.achieved_request_rate) + ' / ' + num(report.saturation.scheduled_request_rate),
          report.saturation.saturated]] : []));
    top.appendChild(el('p', 'caption', [describeLoad(report.load) + '; ' + text(get(report, 'data.source'))
      + ' data; warm-up excluded.']));
    top.appendChild(recordTables(report));
    // Notes first after the summary: they say which numbers below not to trust, and why.
    notesSection(report.notes);

    var measured = [];
    for (var i = 0; i < requests.sent_s.length; i++) {
      if (!requests.warmup[i] && requests.sent_s[i] >= 0 && requests.end_s[i] >= 0) measured.push(i);
    }
    var succeeded = measured.filter(function (i) { return requests.succeeded[i]; });

    var dist = section('Latency distributions',
      'Percentile spectra of the measured, successful requests: the value below which that share of samples lies. '
      + 'The x axis stretches the tail: each step right is ten times rarer.');
    var grid = el('div', 'grid');
    dist.appendChild(grid);
    LATENCIES.forEach(function (m) {
      spectrumChart(grid, 'spectrum-' + m[0], m[1], m[2], [{label: m[1], spectrum: data.spectra[m[0]]}]);
    });

    timeCharts(requests, measured, succeeded, report);
    shapeCharts(requests, succeeded);
    telemetryCharts(data.telemetry || {});
    clientCost(report.client);

    var res = section('Results', 'Measured requests only (warm-up excluded); latencies over successful requests. '
      + '* marks a percentile resting on too few samples to be trusted.');
    res.appendChild(keyValues('Requests and throughput', [
      ['attempted / succeeded / failed / timed out', [counts.attempted, counts.succeeded, counts.failed, counts.timed_out]
        .map(text).join(' / ')],
      ['success rate', percent(results.success_rate)], ['error rate', percent(results.error_rate)],
      ['timeout rate', percent(results.timeout_rate)], ['duration (s)', num(results.duration_s)],
      ['request throughput (req/s)', num(results.request_throughput)],
      ['output token throughput (tokens/s)', num(results.output_token_throughput)],
      ['total token throughput (tokens/s)', num(results.total_token_throughput)]]));
    if (results.goodput) {
      res.appendChild(goodputTable(results.goodput));
    }
    res.appendChild(summaryTable(results));
    var sat = report.saturation;
    if (sat) {
      res.appendChild(keyValues('Offered vs achieved', [
        sat.offered_concurrency !== null && sat.offered_concurrency !== undefined
          ? ['offered concurrency', text(sat.offered_concurrency)]
          : ['offered / scheduled rate (req/s)', num(sat.offered_request_rate) + ' / ' + num(sat.scheduled_request_rate)],
        ['arrival window (s)', num(sat.arrival_window_s)],
        ['achieved request rate (req/s)', num(sat.achieved_request_rate)],
        ['backlog at last arrival: in flight / queued', text(sat.backlog_in_flight) + ' / ' + text(sat.backlog_queued)],
        ['backlog of a server keeping up', num(sat.steady_backlog, 1)],
        ['drain after last arrival (s)', num(sat.drain_s)],
        ['saturated', sat.saturated === null || sat.saturated === undefined ? '–' : sat.saturated ? 'yes' : 'no']]));
    }
    if (sat && sat.stages) {
      res.appendChild(stagesTable(sat.stages));
    }
    if (results.sessions) {
      sessionTables(res, results.sessions, get(report, 'telemetry.prefix_cache_hit_rate'));
    }
    var steady = report.steady_state;
    if (steady) {
      var sr = steady.results || {};
      res.appendChild(keyValues('Steady state (MSER-5): window / whole run', steady.reached ? [
        ['window (s from start)', num(steady.start_s) + ' to ' + num(steady.end_s) + ', ' + text(steady.requests)
          + ' of ' + text(steady.requests + steady.cut) + ' requests'],
        ['request throughput (req/s)', num(sr.request_throughput) + ' / ' + num(results.request_throughput)],
        ['TTFT p50 / p99 (ms)', num(get(sr, 'ttft_ms.p50')) + ' / ' + num(get(sr, 'ttft_ms.p99')) + '  (whole run '
          + num(get(results, 'ttft_ms.p50')) + ' / ' + num(get(results, 'ttft_ms.p99')) + ')'],
        ['TPOT p50 / p99 (ms)', num(get(sr, 'tpot_ms.p50')) + ' / ' + num(get(sr, 'tpot_ms.p99')) + '  (whole run '
          + num(get(results, 'tpot_ms.p50')) + ' / ' + num(get(results, 'tpot_ms.p99')) + ')'],
        ['E2E p50 / p99 (ms)', num(get(sr, 'e2e_latency_ms.p50')) + ' / ' + num(get(sr, 'e2e_latency_ms.p99'))
          + '  (whole run ' + num(get(results, 'e2e_latency_ms.p50')) + ' / ' + num(get(results, 'e2e_latency_ms.p99')) + ')']]
        : [['window', 'not reached: at least ' + text(steady.needed_requests) + ' requests needed (see notes)']]));
    }

    var errors = results.errors || {};
    var errorSection = section('Errors');
    var classes = Object.keys(errors);
    if (classes.length === 0) {
      errorSection.appendChild(el('p', 'caption', ['No failed requests.']));
    } else {
      errorSection.appendChild(table(['class', 'count', 'rate', 'timeout kinds', 'samples'], classes.map(function (k) {
        var e = errors[k];
        var kinds = e.by_timeout_kind ? Object.keys(e.by_timeout_kind).map(function (t) {
          return t + ': ' + e.by_timeout_kind[t];
        }).join(', ') : '';
        return [k, String(e.count), percent(e.rate), kinds,
          {node: el('div', null, (e.samples || []).map(function (s) { return el('div', 'sample', [s]); }))}];
      })));
    }
  }

  /** A load that changes over the run: offered against served, stage by stage (report.md, saturation). */
  function stagesTable(stages) {
    var unit = stages[0].offered === 'concurrency' ? 'concurrency' : 'req/s';
    function span(a, b) { return a === b ? num(a, 1) : num(a, 1) + '–' + num(b, 1); }
    return el('div', 'stages', [el('h3', null, ['Load stages: offered / served']),
      table(['stage (s)', 'offered ' + unit, 'sent', 'succeeded', 'ended per second', 'TTFT p50 (ms)', 'TTFT p99 (ms)',
        'E2E p50 (ms)'], stages.map(function (st) {
        return [span(st.start_s, st.end_s), span(st.offered_from, st.offered_to), text(st.arrivals),
          text(st.succeeded), num(st.achieved_request_rate), num(st.ttft_p50_ms), num(st.ttft_p99_ms),
          num(st.e2e_p50_ms)];
      }), 1)]);
  }

  /** With SLOs: the share of requests that met every limit, and the throughput they make up. */
  function goodputTiles(g) {
    if (!g) return [];
    return [['goodput: requests meeting the SLO', percent(g.met_share), g.met < g.attempted],
      ['goodput (req/s)', num(g.request_goodput)],
      ['goodput (output tok/s)', num(g.output_token_goodput)]];
  }

  function goodputTable(g) {
    var slo = g.slo || {};
    var limits = [['TTFT', slo.ttft_ms], ['TPOT', slo.tpot_ms], ['E2E', slo.e2e_ms]]
      .filter(function (l) { return l[1] !== null && l[1] !== undefined; })
      .map(function (l) { return l[0] + ' ≤ ' + num(l[1]) + ' ms'; });
    return keyValues('Goodput (requests meeting every SLO limit)', [
      ['limits', limits.join(', ') || '–'],
      ['requests meeting them / attempted', text(g.met) + ' / ' + text(g.attempted) + ' (' + percent(g.met_share) + ')'],
      ['request goodput (req/s)', num(g.request_goodput)],
      ['output token goodput (tokens/s)', num(g.output_token_goodput)]]);
  }

  function notesSection(notes) {
    var notesNode = section('Notes');
    if (!notes || notes.length === 0) {
      notesNode.appendChild(el('p', 'caption', ['None.']));
    } else {
      notesNode.appendChild(table(['kind', 'message'], notes.map(function (n) { return [n.kind, n.message]; })));
    }
  }

  function perSecond(seconds) {
    var out = [];
    for (var s = 0; s < seconds; s++) out.push(0);
    return out;
  }

  function timeCharts(requests, measured, succeeded, report) {
    // A large run's page holds every k-th request (k = requests.every): each stands for k.
    var w = requests.every || 1;
    var node = section('Over time', 'Per second from the start of the run, measured requests. '
      + 'Output tokens are spread evenly between a request\u2019s first and last token.'
      + (w > 1 ? ' Drawn from every ' + w + 'th request, each counted ' + w + ' times; timeseries.csv and '
        + 'report.json hold the exact figures.' : ''));
    if (measured.length === 0) return;
    var start = Infinity, end = 0;
    measured.forEach(function (i) {
      start = Math.min(start, requests.sent_s[i]);
      end = Math.max(end, requests.end_s[i]);
    });
    var first = Math.floor(start), seconds = Math.max(1, Math.ceil(end) - first);
    var x = [];
    for (var s = 0; s < seconds; s++) x.push(first + s);

    var ttftBuckets = x.map(function () { return []; }), e2eBuckets = x.map(function () { return []; });
    var tokens = perSecond(seconds), done = perSecond(seconds), failed = perSecond(seconds), inFlight = perSecond(seconds);
    var sentPerS = perSecond(seconds), queueBuckets = x.map(function () { return []; });
    function bucket(t) { return Math.min(seconds - 1, Math.max(0, Math.floor(t) - first)); }
    measured.forEach(function (i) {
      var sent = requests.sent_s[i], ended = requests.end_s[i];
      (requests.succeeded[i] ? done : failed)[bucket(ended)] += w;
      sentPerS[bucket(sent)] += w;
      queueBuckets[bucket(sent)].push(requests.queue_ms[i]);
      // Time-weighted: the mean number of requests in flight during each second.
      for (var b = bucket(sent); b <= bucket(ended); b++) {
        var lo = Math.max(sent, first + b), hi = Math.min(ended, first + b + 1);
        if (hi > lo) inFlight[b] += (hi - lo) * w;
      }
    });
    succeeded.forEach(function (i) {
      var sent = requests.sent_s[i], ttft = requests.ttft_ms[i], e2e = requests.e2e_ms[i];
      if (ttft !== null) ttftBuckets[bucket(sent + ttft / 1000)].push(ttft);
      if (e2e !== null) e2eBuckets[bucket(sent + e2e / 1000)].push(e2e);
      var out = requests.output_tokens[i];
      var from = sent + (ttft !== null ? ttft : e2e !== null ? e2e : 0) / 1000;
      var to = e2e !== null ? sent + e2e / 1000 : requests.end_s[i];
      if (to - from < 1e-6) {
        tokens[bucket(to)] += out * w;
      } else {
        for (var b = bucket(from); b <= bucket(to); b++) {
          var lo = Math.max(from, first + b), hi = Math.min(to, first + b + 1);
          if (hi > lo) tokens[b] += out * w * (hi - lo) / (to - from);
        }
      }
    });
    function pct(buckets, p) {
      return buckets.map(function (values) {
        if (values.length === 0) return null;
        return percentileOf(values.slice().sort(function (a, b) { return a - b; }), p);
      });
    }
    var grid = el('div', 'grid');
    node.appendChild(grid);
    var timeAxis = axis('time (s)');
    [['ttft', 'TTFT per second', ttftBuckets, 'by the second of the first token'],
      ['e2e', 'E2E latency per second', e2eBuckets, 'by the second the request finished']].forEach(function (c) {
      chart(grid, 'time-' + c[0], c[1], 'p50 and p99 of the requests ' + c[3] + '.', {
        scales: {x: {time: false}, y: {range: fromZero}},
        axes: [timeAxis, axis('ms')],
        series: [{label: 's'}, line('p50', COLORS[0], {points: {show: true, size: 3}}),
          line('p99', COLORS[1], {points: {show: true, size: 3}})]
      }, [x, pct(c[2], 50), pct(c[2], 99)]);
    });
    chart(grid, 'time-throughput', 'Throughput', null, {
      scales: {x: {time: false}, tok: {range: fromZero}, req: {range: fromZero}},
      axes: [timeAxis, axis('output tokens/s', {scale: 'tok'}),
        axis('requests/s', {scale: 'req', side: 1, grid: {show: false}})],
      series: [{label: 's'}, line('output tokens/s', COLORS[0], {scale: 'tok'}),
        line('finished/s', COLORS[2], {scale: 'req'}), line('failed/s', COLORS[1], {scale: 'req'})]
    }, [x, tokens.map(function (v) { return Math.round(v * 10) / 10; }), done, failed]);
    itlChart(grid, report.timeseries, timeAxis);
    // The offered rate is the open loop's target; a closed loop offers its concurrency instead.
    var offered = get(report, 'load.mode') === 'open' ? get(report, 'load.request_rate') : null;
    var rateSeries = [{label: 's'}, line('sent/s', COLORS[0], {points: {show: true, size: 3}})];
    var rateColumns = [x, sentPerS];
    if (offered !== null && offered !== undefined && isFinite(offered)) {
      rateSeries.push(line('offered ' + num(offered) + '/s', MARK, {dash: [8, 5], width: 1.5}));
      rateColumns.push(x.map(function () { return offered; }));
    }
    chart(grid, 'time-rate', 'Request rate: offered and sent',
      'Requests sent in each second' + (rateColumns.length > 2 ? ', beside the rate offered.'
        : '; a closed loop offers its concurrency, not a rate.'), {
        scales: {x: {time: false}, y: {range: fromZero}},
        axes: [timeAxis, axis('requests/s')],
        series: rateSeries
      }, rateColumns);
    chart(grid, 'time-inflight', 'Requests in flight', 'Mean over each second.', {
      scales: {x: {time: false}, y: {range: fromZero}},
      axes: [timeAxis, axis('requests')],
      series: [{label: 's'}, line('in flight', COLORS[3], {fill: 'rgba(112,72,232,0.12)'})]
    }, [x, inFlight.map(function (v) { return Math.round(v * 100) / 100; })]);
    chart(grid, 'time-queue', 'Client queue time per second',
      'p50 and p99, by the second the request was sent, of the time from its intended send to its send: waiting at'
      + ' the concurrency gate or behind the schedule. The server’s own queue shows under Server telemetry.', {
        scales: {x: {time: false}, y: {range: fromZero}},
        axes: [timeAxis, axis('ms')],
        series: [{label: 's'}, line('p50', COLORS[0], {points: {show: true, size: 3}}),
          line('p99', COLORS[1], {points: {show: true, size: 3}})]
      }, [x, pct(queueBuckets, 50), pct(queueBuckets, 99)]);
  }

  /** Inter-token gaps per second, exact, from report.json's time series (every token event, not the page's sample). */
  function itlChart(grid, series, timeAxis) {
    var rows = (series && series.seconds) || [];
    if (!rows.some(function (r) { return r.itl_p50_ms !== null && r.itl_p50_ms !== undefined; })) return;
    var origin = (series.start_nanos || 0) / 1e9;
    chart(grid, 'time-itl', 'ITL per second', 'p50 and p99 of the gaps between token events of the successful'
      + ' requests that ended in each second.', {
        scales: {x: {time: false}, y: {range: fromZero}},
        axes: [timeAxis, axis('ms')],
        series: [{label: 's'}, line('p50', COLORS[0], {points: {show: true, size: 3}}),
          line('p99', COLORS[1], {points: {show: true, size: 3}})]
      }, [rows.map(function (r) { return origin + r.second; }), rows.map(function (r) { return r.itl_p50_ms; }),
        rows.map(function (r) { return r.itl_p99_ms; })]);
  }

  function shapeCharts(requests, succeeded) {
    var node = section('Shape of the requests', 'Successful measured requests.');
    if (succeeded.length === 0) return;
    var grid = el('div', 'grid three');
    node.appendChild(grid);
    var isl = succeeded.map(function (i) { return requests.input_tokens[i]; });
    var osl = succeeded.map(function (i) { return requests.output_tokens[i]; });
    barsChart(grid, 'hist-isl', 'Input sequence length', null, 'input tokens', 'requests', histogram(isl), COLORS[0]);
    barsChart(grid, 'hist-osl', 'Output sequence length', null, 'output tokens', 'requests', histogram(osl), COLORS[2]);

    var points = succeeded.filter(function (i) { return requests.ttft_ms[i] !== null; });
    var stride = Math.max(1, Math.ceil(points.length / 20000));
    points = points.filter(function (i, k) { return k % stride === 0; });
    points.sort(function (a, b) { return requests.input_tokens[a] - requests.input_tokens[b]; });
    if (points.length === 0) return;
    chart(grid, 'scatter-ttft-isl', 'TTFT against input length',
      stride > 1 ? 'Every ' + stride + 'th request.' : null, {
        mode: 1,
        scales: {x: {time: false}, y: {range: fromZero}},
        axes: [axis('input tokens'), axis('TTFT (ms)')],
        cursor: {points: {show: false}},
        series: [{label: 'input tokens'}, {label: 'TTFT (ms)', stroke: COLORS[4], fill: COLORS[4],
          paths: function () { return null; }, points: {show: true, size: 4, width: 0, fill: COLORS[4]}}]
      }, [points.map(function (i) { return requests.input_tokens[i]; }),
        points.map(function (i) { return requests.ttft_ms[i]; })]);
  }

  // What llmload itself cost while it measured (report.json's client section), so a reader can tell
  // whether the client may have limited the numbers above.
  function clientCost(client) {
    if (!client) return;
    var lag = client.loop_lag_ms || {};
    var node = section('Client (llmload itself)', client.saturated
      ? 'The client was saturated: its event loops ran late or it used nearly all its cores, so the latencies above '
        + 'may be inflated by up to the loop lag (see the client_saturated note).'
      : 'The client kept up and did not limit this run. Loop lag: how late the event loops served a timer due every '
        + num(client.probe_interval_ms) + ' ms, i.e. how long a read could have waited to be stamped.');
    tiles(node, [
      ['loop lag p99 / max (ms)', num(lag.p99) + ' / ' + num(lag.max), lag.p99 > client.loop_lag_p99_limit_ms],
      ['client CPU (cores of ' + text(client.available_cores) + ')' + (client.includes_simulator ? ', with the simulator' : ''),
        num(client.cpu_cores), !client.includes_simulator && client.cpu_cores > client.cpu_share_limit * client.available_cores],
      ['collector pauses (count / longest ms)', text(client.gc_pauses) + ' / ' + text(client.gc_pause_max_ms)],
      ['CPU s / wall s before the first request', num(client.cpu_before_first_send_s) + ' / ' + num(client.wall_before_first_send_s)],
      ['CPU s / wall s before the load', num(client.cpu_before_load_s) + ' / ' + num(client.wall_before_load_s)]]);
    var rows = client.per_second || [];
    if (rows.length === 0) return;
    var grid = el('div', 'grid');
    node.appendChild(grid);
    var seconds = rows.map(function (r) { return r.second; });
    chart(grid, 'client-lag', 'Event-loop lag per second', null, {
      height: 200,
      scales: {x: {time: false}, y: {range: fromZero}},
      axes: [axis('time (s)'), axis('ms')],
      series: [{label: 's'}, line('p99', COLORS[0]), line('max', COLORS[1])]
    }, [seconds, rows.map(function (r) { return r.loop_lag_p99_ms; }), rows.map(function (r) { return r.loop_lag_max_ms; })]);
    chart(grid, 'client-cpu', 'Client CPU per second', null, {
      height: 200,
      scales: {x: {time: false}, y: {range: fromZero}},
      axes: [axis('time (s)'), axis('cores')],
      series: [{label: 's'}, line('cores', COLORS[2]), line('GC pause ms', COLORS[3])]
    }, [seconds, rows.map(function (r) { return r.cpu_cores; }), rows.map(function (r) { return r.gc_pause_ms; })]);
  }

  function telemetryCharts(telemetry) {
    var names = Object.keys(telemetry).filter(function (n) {
      return telemetry[n].some(function (v) { return v !== null; });
    });
    if (names.length === 0) return;
    var node = section('Server telemetry', 'Per second from the start of the run, as scraped from the server.');
    var grid = el('div', 'grid three');
    node.appendChild(grid);
    names.forEach(function (name, k) {
      var series = telemetry[name];
      var known = TELEMETRY[name] || [name, null];
      chart(grid, 'telemetry-' + k, known[0] + (known[1] ? ' (' + known[1] + ')' : ''), null, {
        height: 180,
        scales: {x: {time: false}, y: {range: fromZero}},
        axes: [axis('time (s)'), axis(known[1])],
        series: [{label: 's'}, line(known[0], COLORS[(k + 5) % COLORS.length])]
      }, [series.map(function (v, i) { return i; }), series]);
    });
  }

  // ---- sweep page ----

  function sweepPage(data) {
    var runs = data.runs, markers = data.markers || {};
    setTitle('Sweep: latency against throughput', ['llmload sweep report', runs.length + ' runs',
      get(runs[0] || {}, 'report.model.name')]);
    var labels = markers.points || {};
    var top = section('Runs', 'One row per run, in the order of the sweep, with its role and its verdict'
      + ' against the SLO (failed: what it missed, saturation first). * marks a percentile resting on too few'
      + ' samples to be trusted.');
    if (markers.capacity_load !== null && markers.capacity_load !== undefined) {
      tiles(top, [['capacity (offered ' + (markers.axis === 'concurrency' ? 'concurrency' : 'req/s') + ')',
        num(markers.capacity_load)], ['achieved there (req/s)', num(markers.capacity_throughput)]]);
    }
    top.appendChild(table(['run', 'role', 'load', 'SLO', 'requests', 'error rate', 'saturated', 'req/s', 'output tok/s',
      'TTFT p50', 'TTFT p99', 'ITL p50', 'ITL p99', 'TPOT p50', 'TPOT p99', 'E2E p50', 'E2E p99'], runs.map(function (r) {
      var res = r.report.results || {}, label = labels[r.label] || {};
      return [r.label, text(label.role), describeLoad(r.report.load), verdictText(label),
        text(get(res, 'requests.attempted')), percent(res.error_rate),
        saturatedText(r), num(res.request_throughput), num(res.output_token_throughput),
        pcell(res, 'ttft_ms', 'p50'), pcell(res, 'ttft_ms', 'p99'), pcell(res, 'itl_ms', 'p50'),
        pcell(res, 'itl_ms', 'p99'), pcell(res, 'tpot_ms', 'p50'), pcell(res, 'tpot_ms', 'p99'),
        pcell(res, 'e2e_latency_ms', 'p50'), pcell(res, 'e2e_latency_ms', 'p99')];
    }), 4));

    var points = runs.filter(function (r) { return get(r, 'report.results.request_throughput') !== null
      && get(r, 'report.results.request_throughput') !== undefined; })
      .sort(function (a, b) { return a.report.results.request_throughput - b.report.results.request_throughput; });
    var anySaturated = points.some(isSaturated);
    var marks = [];
    if (markers.capacity_throughput !== null && markers.capacity_throughput !== undefined) {
      marks.push({x: markers.capacity_throughput, label: 'capacity', color: COLORS[2]});

    }
    if (markers.knee_throughput !== null && markers.knee_throughput !== undefined) {
      marks.push({x: markers.knee_throughput, label: 'knee', color: MARK});
    }
    var node = section('Latency against achieved throughput',
      'p50 and p99 of each run, placed at the request throughput it achieved (not the load offered).'
      + (anySaturated ? ' Ringed: saturated runs, where the server fell behind the offered load and latencies'
        + ' grew with the length of the run.' : '')
      + (marks.length ? ' Dashed: ' + marks.map(function (m) { return m.label + ' at ' + num(m.x) + ' req/s'; }).join(', ') + '.' : '')
      + (markers.capacity_load !== null && markers.capacity_load !== undefined ? ' The capacity is the offered '
        + (markers.axis === 'concurrency' ? 'concurrency ' + num(markers.capacity_load)
          : 'rate ' + num(markers.capacity_load) + ' req/s') + ' (as in sweep.json and the console); the line stands'
        + ' at the request throughput its run achieved.' : ''));
    var grid = el('div', 'grid three');
    node.appendChild(grid);
    var x = points.map(function (r) { return r.report.results.request_throughput; });
    [['ttft', 'ttft_ms', 'TTFT'], ['tpot', 'tpot_ms', 'TPOT'], ['e2e', 'e2e_latency_ms', 'E2E latency']].forEach(function (m) {
      var slo = (markers.slo_ms || {})[m[0]];
      var series = [{label: 'req/s', value: function (u, v) { return num(v); }},
        line('p50', COLORS[0], {points: {show: true, size: 6}}), line('p99', COLORS[1], {points: {show: true, size: 6}})];
      var columns = [x, points.map(function (r) { return get(r.report.results, m[1] + '.p50'); }),
        points.map(function (r) { return get(r.report.results, m[1] + '.p99'); })];
      if (slo !== undefined && slo !== null) {
        series.push(line('SLO ' + num(slo) + ' ms', SLO, {dash: [8, 5], width: 1.5}));
        columns.push(x.map(function () { return slo; }));
      }
      if (anySaturated) {
        series.push(saturatedMarks());
        columns.push(points.map(function (r) { return isSaturated(r) ? get(r.report.results, m[1] + '.p99') : null; }));
      }
      chart(grid, 'sweep-' + m[0], m[2] + ' (ms)', null, {
        height: 300,
        plugins: [verticalMarkers(marks)],
        scales: {x: {time: false}, y: {range: fromZero}},
        axes: [axis('achieved requests/s'), axis('ms')],
        series: series
      }, columns);
    });
    userSpeed(runs, anySaturated);
  }

  /**
   * Per-user output speed (tokens/s after the first token, 1000 / TPOT) against the output
   * throughput the server achieved: what each user gets as the server serves more. 1000 / TPOT
   * p50 is the median user's speed and 1000 / TPOT p90 the speed the slowest tenth stay below,
   * since a percentile of TPOT is the same percentile, reversed, of its reciprocal.
   */
  function userSpeed(runs, anySaturated) {
    var points = runs.filter(function (r) {
      return isFinite(get(r, 'report.results.output_token_throughput')) && get(r, 'report.results.tpot_ms.p50') > 0;
    }).sort(function (a, b) { return a.report.results.output_token_throughput - b.report.results.output_token_throughput; });
    if (points.length === 0) return;
    function speed(r, p) {
      var tpot = get(r.report.results, 'tpot_ms.' + p);
      return tpot > 0 ? 1000 / tpot : null;
    }
    var node = section('Per-user output speed against output throughput',
      'Tokens per second each user receives after the first token (1000 / TPOT), placed at the output tokens'
      + ' per second the server achieved: the median user (1000 / TPOT p50) and the slowest tenth'
      + ' (1000 / TPOT p90).' + (anySaturated ? ' Ringed: saturated runs.' : ''));
    var grid = el('div', 'grid');
    node.appendChild(grid);
    var series = [{label: 'output tok/s', value: function (u, v) { return num(v); }},
      line('median user', COLORS[0], {points: {show: true, size: 6}}),
      line('slowest 10%', COLORS[1], {points: {show: true, size: 6}})];
    var columns = [points.map(function (r) { return r.report.results.output_token_throughput; }),
      points.map(function (r) { return speed(r, 'p50'); }), points.map(function (r) { return speed(r, 'p90'); })];
    if (anySaturated) {
      series.push(saturatedMarks());
      columns.push(points.map(function (r) { return isSaturated(r) ? speed(r, 'p50') : null; }));
    }
    chart(grid, 'sweep-speed', 'Per-user output speed (tok/s)', null, {
      height: 300,
      scales: {x: {time: false}, y: {range: fromZero}},
      axes: [axis('achieved output tokens/s'), axis('tok/s per user')],
      series: series
    }, columns);
  }

  function verdictText(label) {
    if (label.meets_slo === true) return 'pass';
    if (label.meets_slo === false) return 'FAIL' + (label.violations && label.violations.length
      ? ': ' + label.violations.join('; ') : '');
    return '–';
  }

  function isSaturated(r) {
    return get(r, 'report.saturation.saturated') === true;
  }

  /** Closed loops cannot fall behind an offered rate: no verdict there. */
  function saturatedText(r) {
    var saturated = get(r, 'report.saturation.saturated');
    return saturated === true ? 'YES' : saturated === false ? 'no' : '–';
  }

  /** A ring around each saturated run's point, no line. */
  function saturatedMarks() {
    return {label: 'saturated', stroke: SLO, width: 2, paths: function () { return null; },
      points: {show: true, size: 14, width: 2, fill: 'rgba(0,0,0,0)'}};
  }

  // ---- comparison page ----

  function comparisonPage(data) {
    var runs = data.runs;
    setTitle('Comparison: ' + runs.map(function (r) { return r.label; }).join(' vs '),
      ['llmload comparison report', runs.length + ' runs']);
    var top = section('Side by side', '* marks a percentile resting on too few samples to be trusted.');
    function row(label, f) {
      return [label].concat(runs.map(function (r) { return f(r.report, r.report.results || {}); }));
    }
    var rows = [
      row('model', function (rep) { return get(rep, 'model.name'); }),
      row('framework', function (rep) { return [get(rep, 'service.framework'), get(rep, 'service.version')]
        .filter(function (v) { return v; }).join(' '); }),
      row('url', function (rep) { return get(rep, 'service.url'); }),
      row('hardware', function (rep) { var h = rep.hardware || {};
        return h.gpu_model ? (h.gpu_count ? h.gpu_count + ' × ' : '') + h.gpu_model : null; }),
      row('load', function (rep) { return describeLoad(rep.load); }),
      row('input tokens', function (rep) { return get(rep, 'data.input_tokens.requested'); }),
      row('output tokens', function (rep) { return get(rep, 'data.output_tokens.requested'); }),
      row('requests attempted', function (rep, res) { return get(res, 'requests.attempted'); }),
      row('error rate', function (rep, res) { return percent(res.error_rate); }),
      row('request throughput (req/s)', function (rep, res) { return num(res.request_throughput); }),
      row('output tokens/s', function (rep, res) { return num(res.output_token_throughput); })];
    SUMMARIES.slice(0, 6).forEach(function (k) {
      ['p50', 'p99'].forEach(function (p) {
        rows.push(row(k[1].replace(' (ms)', '') + ' ' + p + ' (ms)', function (rep, res) { return pcell(res, k[0], p); }));
      });
    });
    top.appendChild(table(['metric'].concat(runs.map(function (r) { return r.label; })), rows, 1));

    if (data.comparison) differences(data.comparison);
    var notes = [];
    runs.forEach(function (r) {
      (r.report.notes || []).forEach(function (n) { notes.push({kind: r.label + ': ' + n.kind, message: n.message}); });
    });
    notesSection(notes);
    var dist = section('Latency distributions', 'Percentile spectra of each run\u2019s successful measured requests.');
    var grid = el('div', 'grid');
    dist.appendChild(grid);
    LATENCIES.forEach(function (m) {
      spectrumChart(grid, 'compare-' + m[0], m[1], m[2], runs.map(function (r) {
        return {label: r.label, spectrum: r.spectra[m[0]]};
      }));
    });
  }

  /** What llmload compare printed: the verdict first, then each pair's differences with their intervals. */
  function differences(c) {
    var ci = num(c.confidence * 100, 0) + '% CI of the difference';
    var node = section('Differences', 'Each run against its baseline. * significant: the ' + ci + ' excludes 0 ('
      + text(c.resamples) + ' bootstrap resamples, seed ' + text(c.seed) + '); never for a percentile on fewer samples'
      + ' than it needs (p90: 10, p99: 100), marked few samples. The interval covers sampling and how each run varied'
      + ' over its course, not a shift that lasted a whole run: repeat runs to see that. Pairs of repeats are compared'
      + ' across runs: means over the runs, with Welch\'s interval of their difference.');
    var failIf = c.fail_if || [], regressions = c.regressions || [];
    if (failIf.length) {
      tiles(node, [[regressions.length ? 'REGRESSION (--fail-if ' + failIf.join(',') + ')'
        : 'no threshold crossed (--fail-if ' + failIf.join(',') + ')',
        regressions.length ? regressions.length + ' crossed' : 'pass', regressions.length > 0]]);
      if (regressions.length) {
        node.appendChild(el('ul', null, regressions.map(function (r) { return el('li', 'regression', [r]); })));
      }
      // Every other limit's verdict too: a limit that passed or could not be judged says so, and why.
      var others = (c.verdicts || []).filter(function (v) { return v.outcome !== 'REGRESSION'; });
      if (others.length) {
        node.appendChild(el('ul', null, others.map(function (v) {
          return el('li', null, [v.outcome + '  ' + v.run + ': ' + v.limit + ': ' + v.detail]);
        })));
      }
    }
    if ((c.mismatches || []).length) {
      node.appendChild(el('p', 'caption', ['Not like for like (compared anyway): ' + c.mismatches.join('; ')]));
    }
    (c.pairs || []).forEach(function (pair) {
      node.appendChild(el('h3', null, [pair.run + '  vs  ' + pair.baseline + ' (baseline)'
        + (pair.interval === 'runs' ? ', across runs: means of ' + pair.run_runs + ' vs ' + pair.baseline_runs
          + ' runs, Welch interval (covers run-to-run variation)' : '')]));
      node.appendChild(table(['metric', 'baseline', 'run', 'difference', 'difference %', ci, 'significant'],
        pair.metrics.map(function (d) {
          var interval = d.ci_low === null || d.ci_low === undefined ? '–'
            : '[' + num(d.ci_low) + ', ' + num(d.ci_high) + ']';
          var relative = d.relative_difference === null || d.relative_difference === undefined ? '–'
            : (d.relative_difference > 0 ? '+' : '') + num(d.relative_difference * 100, 1) + ' %';
          return [d.metric, num(d.baseline), num(d.value), num(d.difference), relative, interval,
            d.significant ? '*' : d.few_samples ? 'few samples' : ''];
        }), 1));
    });
  }

  // ---- page ----

  function setTitle(heading, subtitle) {
    document.getElementById('title').textContent = heading;
    document.getElementById('subtitle').textContent = subtitle.filter(function (s) { return s; }).join(' \u00b7 ');
    document.title = heading + ' \u2014 llmload';
  }

  function footer(data) {
    var tool = get(data, 'report.tool') || get(data, 'runs.0.report.tool') || {};
    document.getElementById('footer').textContent = 'Written by ' + text(tool.name || 'llmload') + ' '
      + text(tool.version) + '. Charts: uPlot (MIT). Self-contained: this page loads nothing from the network.';
  }

  /** How many of a chart's y values are drawn, and whether a series colour reached the plot area. */
  function inspect(c) {
    var u = c.plot, points = 0;
    for (var s = 1; s < u.data.length; s++) {
      u.data[s].forEach(function (v) { if (v !== null && v !== undefined) points++; });
    }
    var painted = 0;
    try {
      var colors = c.colors;
      var box = u.bbox, pixels = u.ctx.getImageData(box.left, box.top, Math.max(1, box.width), Math.max(1, box.height)).data;
      for (var i = 0; i < pixels.length; i += 4) {
        if (pixels[i + 3] < 200) continue;
        for (var k = 0; k < colors.length; k++) {
          var col = colors[k];
          if (Math.abs(pixels[i] - col[0]) + Math.abs(pixels[i + 1] - col[1]) + Math.abs(pixels[i + 2] - col[2]) < 60) {
            painted++;
            break;
          }
        }
      }
    } catch (e) {
      window.llmloadCheck.errors.push('inspect ' + c.id + ': ' + e.message);
    }
    var series = [];
    for (var k = 1; k < u.data.length; k++) {
      series.push({label: u.series[k].label,
        points: u.data[k].filter(function (v) { return v !== null && v !== undefined; }).length});
    }
    return {id: c.id, title: c.title, points: points, painted: painted, width: u.width, series: series};
  }

  function rgb(color) {
    var m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(String(color));
    return m ? [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)] : null;
  }

  function selfCheck(data) {
    var check = window.llmloadCheck;
    document.getElementById('llmload-selfcheck').textContent = JSON.stringify({
      kind: data && data.kind,
      charts: charts.map(inspect),
      errors: check.errors,
      dialogs: check.dialogs,
      heading: document.getElementById('title').textContent,
      title: document.title,
      layout: layout()
    });
  }

  /**
   * What a reader sees of the page's tables: legend values showing uPlot's placeholder, record
   * panels (by title), rows of the record panels and the summaries without an explanation on hover,
   * and the widest strip of white space a record panel leaves right of its table (px).
   */
  function layout() {
    var placeholders = 0;
    Array.prototype.forEach.call(document.querySelectorAll('.u-legend .u-value'), function (v) {
      if (/^\s*(--|\u2013)\s*$/.test(v.textContent)) placeholders++;
    });
    var untitled = [];
    Array.prototype.forEach.call(document.querySelectorAll('table.kv tr'), function (row) {
      if (!row.title) untitled.push(row.textContent);
    });
    var panels = [], trailing = 0;
    Array.prototype.forEach.call(document.querySelectorAll('.records > div'), function (box) {
      panels.push(box.querySelector('h3').textContent);
      var table = box.querySelector('table');
      trailing = Math.max(trailing, box.getBoundingClientRect().width - table.getBoundingClientRect().width);
    });
    return {legendPlaceholders: placeholders, untitledRows: untitled, panels: panels, trailingWhitePx: trailing};
  }

  var data = null;
  try {
    data = JSON.parse(document.getElementById('llmload-data').textContent);
    ({run: runPage, sweep: sweepPage, comparison: comparisonPage})[data.kind](data);
    footer(data);
  } catch (e) {
    window.llmloadCheck.errors.push('render: ' + (e && e.stack ? e.stack : e));
    content.appendChild(el('p', null, ['The report could not be drawn: ' + e]));
  }

  var resizing = null;
  window.addEventListener('resize', function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () {
      charts.forEach(function (c) { c.plot.setSize({width: Math.max(300, c.box.clientWidth), height: c.plot.height}); });
    }, 100);
  });
  setTimeout(function () { selfCheck(data); }, 50);
})();
