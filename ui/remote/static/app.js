// Parlor's phone page: one seat's hand and the public table, over docs/protocol.md (v1).
// Standard DOM and WebSocket APIs only; every text from the table is set with textContent.
'use strict';
(function () {
  const V = 1;
  const SUBPROTOCOL = 'parlor.v1';
  const TOKEN_PREFIX = 'parlor.token.';  // the token at the upgrade too: docs/protocol.md, "Limits"
  const KEY = /^[A-Za-z0-9_-]{16,64}$/;
  const LANGS = ['en', 'vi', 'es', 'fr', 'nl'];
  const FALLBACK = {  // before the table has sent the page's words
    choose_seat: 'Choose a free seat', your_name: 'Your name', free: 'free', taken: 'taken',
    reconnecting: 'Connection lost: reconnecting…', err_token: 'This link is no longer valid.',
    code_title: 'Type the table code', join: 'Join',
  };
  const $ = (id) => document.getElementById(id);

  const hash = new URLSearchParams(location.hash.slice(1).replace(/^([^&=]+)(&|$)/, 't=$1$2'));
  let token = hash.get('t') || '';  // from the QR link, or traded for the table code
  const wantedSeat = hash.has('seat') ? Number(hash.get('seat')) : null;
  let storeKey = 'parlor:' + token;

  let ws = null;
  let saved = load();
  let lang = hash.get('lang') || saved.lang || guessLang();
  if (!LANGS.includes(lang)) lang = 'en';
  let strings = {};
  let deck = {};
  let art = null;  // the card sheet: {url, cols, rows, width, height} (ui/remote/art.py)
  let game = '';
  let state = null;
  let picked = [];
  let waiting = false;
  let refs = 1;
  let retries = 0;
  let stopped = false;
  let tableSeats = [];

  function load() {
    try { return JSON.parse(localStorage.getItem(storeKey) || '{}') || {}; } catch (e) { return {}; }
  }
  function save() {
    try { localStorage.setItem(storeKey, JSON.stringify(saved)); } catch (e) { /* private mode */ }
  }
  function guessLang() {
    const code = (navigator.language || 'en').slice(0, 2).toLowerCase();
    return LANGS.includes(code) ? code : 'en';
  }
  function t(key, values) {
    let text = strings[key] || FALLBACK[key] || key;
    if (values) {
      for (const name of Object.keys(values)) text = text.split('{' + name + '}').join(String(values[name]));
    }
    return text;
  }
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function status(text, bad) {
    const node = $('status');
    node.textContent = text || '';
    node.classList.toggle('bad', !!bad);
  }
  function send(msg) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(Object.assign({ v: V }, msg)));
  }

  // -- connection -------------------------------------------------------------------------------
  function connect(code) {
    if (!token && !code) { showCode(); return; }
    const scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
    // A token of the wrong form is not offered (a browser throws on it): the table refuses it.
    const offers = KEY.test(token) ? [SUBPROTOCOL, TOKEN_PREFIX + token] : [SUBPROTOCOL];
    ws = new WebSocket(scheme + location.host + '/ws', offers);
    ws.onopen = function () {
      retries = 0;
      status('');
      if (!token) {
        send({ type: 'code', code: code });  // traded for the token (HANDLERS.token)
      } else if (saved.secret !== undefined && saved.seat !== undefined) {
        send({ type: 'join', token: token, seat: saved.seat, secret: saved.secret, lang: lang });
      } else {
        send({ type: 'hello', token: token, lang: lang });
      }
    };
    ws.onmessage = function (event) {
      let msg;
      try { msg = JSON.parse(event.data); } catch (e) { return; }
      if (!msg || msg.v !== V) return;
      const handler = HANDLERS[msg.type];
      if (handler) handler(msg);
    };
    ws.onclose = function () {
      ws = null;
      waiting = false;
      if (stopped || !token) return;  // a wrong table code: the form stays, nothing retries
      status(t('reconnecting'), true);
      retries += 1;
      setTimeout(connect, Math.min(10000, 500 * retries));
    };
  }

  const HANDLERS = {
    token: function (msg) {  // the table code was right: this page now holds the link's token
      token = msg.token;
      storeKey = 'parlor:' + token;
      saved = load();
      history.replaceState(null, '', '#' + token);
      $('code').hidden = true;
      send({ type: 'hello', token: token, lang: lang });
    },
    table: function (msg) {
      strings = msg.strings || strings;
      game = msg.game;
      tableSeats = msg.seats;
      $('title').textContent = msg.title;
      if (wantedSeat !== null && tableSeats.some((s) => s.seat === wantedSeat && s.free)) {
        join(wantedSeat);
        return;
      }
      showJoin();
    },
    joined: function (msg) {
      saved = { seat: msg.seat, secret: msg.secret, lang: msg.lang, name: saved.name };
      save();
      strings = msg.strings;
      game = msg.game;
      setDeck(msg.deck);
      setArt(msg.art);
      $('title').textContent = msg.title;
      $('join').hidden = true;
      $('game').hidden = false;
      labels();
    },
    state: function (msg) {
      state = msg;
      picked = picked.filter((code) => msg.decision && msg.decision.playable.includes(code));
      if (!msg.decision) picked = [];
      render();
    },
    accepted: function () {
      waiting = false;
      picked = [];
      $('message').textContent = '';
      render();
    },
    verdict: function (msg) {
      if (!msg.ok && msg.reason) $('message').textContent = msg.reason;
      else if (msg.ok) $('message').textContent = '';
    },
    strings: function (msg) {
      strings = msg.strings;
      if (msg.deck) setDeck(msg.deck);  // the cards' names in the new language (Chắn's differ)
      labels();
      render();
    },
    error: function (msg) {
      waiting = false;
      const code = msg.code;
      if (code === 'illegal') {
        $('message').textContent = msg.reason || msg.message;
        render();
      } else if (code === 'token') {
        stopped = true;
        status(t('err_token'), true);
      } else if (code === 'code' || code === 'locked') {
        status(t('err_' + code), true);
        $('code-input').select();
      } else if ((code === 'secret' || code === 'taken') && !state) {
        saved = { lang: lang, name: saved.name };
        save();
        status(t('err_taken'), true);
        send({ type: 'hello', token: token, lang: lang });
      } else if (code === 'name' && !state) {
        status(t('err_name'), true);
        $('name').focus();
      } else if (code === 'rate') {
        status(t('err_rate'), true);
      } else if (code === 'closed') {
        status(t('err_closed'), true);
      } else {
        status(t('err_other', { code: code }), true);
      }
    },
  };

  // -- the table code (no QR scan) ----------------------------------------------------------
  function showCode() {
    $('code').hidden = false;
    $('join').hidden = true;
    $('game').hidden = true;
    fetch('/words/' + lang + '.json').then((r) => r.json()).then(function (words) {
      strings = words;
      codeLabels();
    }).catch(function () { /* the English fallback stays */ });
    codeLabels();
  }
  function codeLabels() {
    $('code-title').textContent = t('code_title');
    $('code-help').textContent = t('code_help');
    $('code-go').textContent = t('join');
  }
  $('code-form').addEventListener('submit', function (event) {
    event.preventDefault();
    const code = $('code-input').value.trim();
    if (!/^[0-9]{4}$/.test(code)) { status(t('code_help'), true); return; }
    status('');
    if (ws) ws.close();
    connect(code);
  });

  // -- joining: the game, every seat's place and team, the free ones ------------------------
  function teamText(seat) {
    if (seat.side === null || seat.side === undefined) return t('alone');
    const names = seat.partners.map(function (p) {
      const other = tableSeats[p];
      return other ? other.name : t('seat_n', { n: p + 1 });
    });
    return t('team_with', { names: names.join(', ') });
  }
  function showJoin() {
    $('join').hidden = false;
    $('game').hidden = true;
    $('choose-seat').textContent = t('choose_seat');
    $('name-label').textContent = t('your_name');
    if (saved.name && !$('name').value) $('name').value = saved.name;
    const list = $('seat-list');
    clear(list);
    for (const seat of tableSeats) {
      const side = seat.side === null || seat.side === undefined ? '' : ' team' + seat.side;
      const item = el('li', 'seat-row' + side);
      const box = seat.kind === 'phone' ? el('button') : el('div', 'seat-fixed');
      const words = el('span', 'seat-words');
      const head = el('span', 'seat-head');
      head.appendChild(el('span', 'seat-no', t('seat_n', { n: seat.seat + 1 })));
      head.appendChild(el('span', 'seat-name', seat.name));
      words.appendChild(head);
      words.appendChild(el('span', 'seat-team', teamText(seat)));
      box.appendChild(words);
      let kind = seat.kind === 'ai' ? t('kind_ai') : t('kind_screen');
      if (seat.kind === 'phone') kind = seat.free ? t('free') : t('taken');
      box.appendChild(el('span', 'kind' + (seat.free ? ' free' : ''), kind));
      if (seat.kind === 'phone') {
        box.disabled = !seat.free;
        box.addEventListener('click', () => join(seat.seat));
      }
      item.appendChild(box);
      list.appendChild(item);
    }
  }
  function join(seat) {
    const name = $('name').value.trim();
    saved.name = name || undefined;
    const msg = { type: 'join', token: token, seat: seat, lang: lang };
    if (name) msg.name = name;
    send(msg);
  }

  // -- the game -----------------------------------------------------------------------------------
  function labels() {
    $('hand-title').textContent = t('hand');
    $('scores-title').textContent = t('scores');
  }
  function seatName(seat) {
    return state && state.seats[seat] ? state.seats[seat].name : '';
  }
  function setDeck(cards) {
    deck = {};
    cards.forEach(function (card, index) { deck[card.code] = Object.assign({ cell: index }, card); });
    deck[''] = { cell: cards.length };  // the back; Meri's face-down trump is the cell after it
  }
  function setArt(sheet) {
    art = sheet || null;
    const root = document.documentElement.style;
    if (!art) return;
    root.setProperty('--sheet', 'url("' + art.url + '")');
    root.setProperty('--sheet-cols', String(art.cols));
    root.setProperty('--sheet-rows', String(art.rows));
    root.setProperty('--aspect', String(art.width / art.height));
    document.body.dataset.game = game;
  }
  function paint(node, cell) {
    // the kiosk's picture of the card (one cell of the sheet), as a background: any size
    if (!art) return;
    const col = cell % art.cols;
    const row = Math.floor(cell / art.cols);
    node.style.backgroundPosition = (100 * col / (art.cols - 1)) + '% ' + (100 * row / Math.max(1, art.rows - 1)) + '%';
  }
  function cardNode(code, small) {
    // the kiosk's picture of the card; its name (ui/card_names.py) for screen readers and
    // when the picture is missing: never its record code
    const info = deck[code] || { label: '?', big: '?', sub: '', suit: '', cell: -1 };
    const node = el(small ? 'span' : 'button', 'card s-' + info.suit + (small ? ' small' : ''));
    if (art && info.cell >= 0) {
      node.classList.add('art');
      paint(node, info.cell);
      node.setAttribute('role', 'img');
    } else {
      node.appendChild(el('span', info.big.length > 3 ? 'big long' : 'big', info.big));
      if (info.sub) node.appendChild(el('span', 'sub', info.sub));
    }
    if (!small) node.removeAttribute('role');  // a hand card is a button
    node.setAttribute('aria-label', info.label);
    node.title = info.label;
    node.dataset.code = code;  // the page's key (tests find a card by it); never shown
    return node;
  }
  function backNode() {
    const node = el('span', 'card small back');
    node.setAttribute('aria-label', 'face down');
    if (art) {  // Meri's face-down card is a trump everybody knows of (its badge, as the kiosk's)
      node.classList.add('art');
      paint(node, deck[''].cell + (game === 'meri' ? 1 : 0));
    }
    return node;
  }
  function spot(seat, cards, won) {
    const box = el('div', 'spot' + (won ? ' won' : ''));
    box.appendChild(el('span', 'who', seatName(seat)));
    const row = el('div', 'cards');
    for (const card of cards) row.appendChild(card === 'down' ? backNode() : cardNode(card, true));
    box.appendChild(row);
    return box;
  }

  function render() {
    if (!state) return;
    // Redrawn in place: the page keeps its scroll (a tap on a card low in a long hand leaves
    // the hand where the thumb had it, with the action button below it).
    const scrolled = window.scrollY;
    draw();
    if (window.scrollY !== scrolled) window.scrollTo(0, scrolled);
  }
  function draw() {
    const view = state.view;
    const mine = state.decision;
    renderSeats();
    renderTable(view);
    const prompt = $('prompt');
    prompt.classList.toggle('mine', !!mine);
    if (state.result) prompt.textContent = t('deal_over');
    else if (mine) prompt.textContent = mine.prompt;
    else if (state.to_act !== null && state.to_act !== state.seat) prompt.textContent = t('waiting', { seat: seatName(state.to_act) });
    else prompt.textContent = '…';
    renderActions(mine);
    renderHand(view, mine);
    renderResult();
    renderScores();
  }

  function renderSeats() {
    const list = $('seats');
    clear(list);
    const teams = game === 'chan' ? null : 2;
    state.seats.forEach(function (seat, index) {
      let cls = teams ? 'team' + (index % 2) : '';
      if (index === state.seat) cls += ' me';
      if (index === state.to_act) cls += ' acting';
      const item = el('li', cls, seat.name);
      if (seat.plays === 'ai' && seat.connected === false) {
        item.appendChild(el('span', 'badge', '(AI)'));
        item.title = t('ai_plays', { seat: seat.name });
      }
      list.appendChild(item);
    });
    const away = state.seats.filter((s) => s.plays === 'ai' && s.connected === false);
    status(away.map((s) => t('ai_plays', { seat: s.name })).join(' '));
  }

  function renderTable(view) {
    const table = $('table');
    const info = $('info');
    clear(table);
    if (game === 'meri') {
      info.textContent = t('trump', { suit: suitLabel(view.trump) }) + ' · Okie ' + label(view.okie);
      let trick = view.trick;
      let winner = -1;
      if (trick.every((c) => c === null) && view.tricks.length) {
        const last = view.tricks[view.tricks.length - 1];
        trick = last.cards;
        winner = last.winner;
        table.appendChild(el('p', 'caption', t('last_trick')));
      }
      trick.forEach(function (card, seat) {
        table.appendChild(spot(seat, card === null ? [] : [card], seat === winner));
      });
    } else if (game === 'tractor') {
      const trump = view.trump === null ? '—' : (view.trump === 'NT' ? t('no_trump') : suitLabel(view.trump));
      info.textContent = t('trump_level', { suit: trump, level: view.level }) + ' · ' + t('points') + ': ' + view.points;
      let plays = view.trick;
      let leader = view.leader;
      let winner = -1;
      if (!plays.length && view.tricks.length) {
        const last = view.tricks[view.tricks.length - 1];
        plays = last.plays;
        leader = last.leader;
        winner = last.winner;
        table.appendChild(el('p', 'caption', t('last_trick')));
      }
      plays.forEach(function (cards, i) {
        const seat = (leader + i) % state.seats.length;
        table.appendChild(spot(seat, cards, seat === winner));
      });
    } else if (game === 'chan') {
      info.textContent = t('stock', { n: view.stock });
      if (view.open) {
        table.appendChild(el('p', 'caption', t('open_card') + ' · ' + seatName(view.open_owner)));
        table.appendChild(spot(view.open_owner, [view.open], true));
      }
      view.gates.forEach(function (gate, seat) {
        const recent = gate.slice(-3).map((g) => g.card);
        const box = spot(seat, recent, false);
        box.appendChild(el('span', 'who', view.exposed[seat].map((p) => p.map(label).join(' + ')).join(', ')));
        table.appendChild(box);
      });
    }
  }
  function label(code) { return deck[code] ? deck[code].label : '?'; }
  function suitLabel(letter) {
    const symbols = { S: '♠', H: '♥', C: '♣', D: '♦' };
    if (game === 'tractor') return symbols[letter] || letter;
    for (const code of Object.keys(deck)) {  // Meri: the suit's name, from its cards' tiles
      const card = deck[code];
      if (card.suit === letter) return card.sub;
    }
    return letter;
  }

  function renderActions(mine) {
    const bar = $('actions');
    clear(bar);
    if (!mine) return;
    for (const b of mine.buttons) {
      const button = el('button', '', b.label);
      button.disabled = waiting;
      button.addEventListener('click', () => act(b.action));
      bar.appendChild(button);
    }
    if (mine.pick) {
      // the kiosk's word for it (Capture, Discard, Bury, Play), at the bottom, under the thumb
      const play = el('button', 'primary', mine.pick.label || t('play'));
      play.id = 'play';
      play.disabled = waiting || picked.length < mine.pick.min || picked.length > mine.pick.max;
      play.addEventListener('click', playPicked);
      bar.appendChild(play);
      if (mine.pick.max > 1) {
        const reset = el('button', '', t('clear'));
        reset.disabled = !picked.length;
        reset.addEventListener('click', function () { picked = []; $('message').textContent = ''; render(); });
        bar.appendChild(reset);
      }
    }
  }

  function renderHand(view, mine) {
    const hand = $('hand');
    clear(hand);
    const blocked = {};
    if (mine) for (const b of mine.blocked) blocked[b.card] = b;
    const kitty = (view.picked_up || []).slice();
    const counts = {};
    for (const code of picked) counts[code] = (counts[code] || 0) + 1;
    const breaks = view.hand_breaks || [];  // Tractor: a new suit group (the kiosk's order)
    view.hand.forEach(function (code, index) {
      const node = cardNode(code, false);
      if (breaks.includes(index)) node.classList.add('group-start');
      if (counts[code]) { node.classList.add('picked'); counts[code] -= 1; }
      const k = kitty.indexOf(code);
      if (k >= 0 && mine && mine.phase === 'bury') { node.classList.add('kitty'); kitty.splice(k, 1); }
      const canPick = mine && mine.pick && mine.playable.includes(code);
      if (canPick) node.classList.add('playable');
      else if (mine && mine.pick) node.classList.add('blocked');
      node.addEventListener('click', function () { tapCard(code, node.classList.contains('picked'), blocked[code]); });
      hand.appendChild(node);
    });
  }

  function tapCard(code, isPicked, blocked) {
    const mine = state && state.decision;
    if (!mine || !mine.pick || waiting) return;
    if (blocked) { $('message').textContent = blocked.reason; return; }
    if (!mine.playable.includes(code)) return;
    const one = mine.pick.max === 1;
    if (isPicked) {
      if (one) { playPicked(); return; }  // tap again to play, as on the kiosk
      picked.splice(picked.indexOf(code), 1);
    } else if (one) {
      picked = [code];
    } else if (picked.length < mine.pick.max) {
      picked.push(code);
    }
    $('message').textContent = '';
    render();
    if (!one && picked.length >= mine.pick.min && picked.length === expected(mine)) {
      send({ type: 'check', action: actionText(mine), ref: refs++ });
    }
  }
  function expected(mine) { return mine.pick.min === mine.pick.max ? mine.pick.max : picked.length; }
  function actionText(mine) { return (mine.pick.verb ? mine.pick.verb + ' ' : '') + picked.join(' '); }
  function playPicked() {
    const mine = state && state.decision;
    if (!mine || !mine.pick || !picked.length) return;
    act(actionText(mine));
  }
  function act(action) {
    if (waiting) return;
    waiting = true;
    send({ type: 'act', action: action, ref: refs++ });
    render();
  }

  function renderResult() {
    const box = $('result');
    clear(box);
    box.hidden = !state.result;
    if (!state.result) return;
    box.appendChild(el('h2', '', t('deal_over')));
    for (const side of state.result.sides) {
      for (const line of side.lines) box.appendChild(el('p', '', line));
    }
    for (const line of state.result.lines) box.appendChild(el('p', '', line));
  }

  function renderScores() {
    const list = $('scores');
    clear(list);
    for (const side of state.scores.sides) {
      const item = el('li');
      item.appendChild(el('span', '', side.seats.map(seatName).join(' & ')));
      item.appendChild(el('span', 'pts', side.score));
      list.appendChild(item);
    }
  }

  // -- language -------------------------------------------------------------------------------
  const select = $('lang');
  select.value = lang;
  select.addEventListener('change', function () {
    lang = select.value;
    saved.lang = lang;
    save();
    document.documentElement.lang = lang;
    if (!token) showCode();  // the table code's form: its words in the new language
    else if (state) send({ type: 'lang', lang: lang });
    else send({ type: 'hello', token: token, lang: lang });
  });
  document.documentElement.lang = lang;
  // the page ends above the dock (fixed at the bottom): its last lines are never under it
  const dock = $('dock');
  const room = function () {
    const below = $('game').hidden ? 0 : dock.offsetHeight;
    document.body.style.paddingBottom = (below + 16) + 'px';
    document.documentElement.style.scrollPaddingBottom = below + 'px';  // scrolled-to: above it
  };
  if (window.ResizeObserver) new ResizeObserver(room).observe(dock);
  new MutationObserver(room).observe($('game'), { attributes: true, attributeFilter: ['hidden'] });
  connect();
})();
