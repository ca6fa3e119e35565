// The table page: one socket to the table, the regions it pushes, and playing tiles.
//
// The server owns the game. Every view it sends is the table as this seat may see it, with
// the regions that changed since the view before as HTML (all of them in a socket's first
// view): this script swaps each region in by id and keeps the rest (keeping the lanes' and
// the hand's scroll, and never redrawing the hand mid-drag), and sends intents based on
// the version it shows. It lights only the targets the server listed on each hand tile
// (data-targets), so it never decides a rule, with one exception kept deliberately small:
// a first-turn line in the standard game is built here tile by tile, where each next tile
// has only to match the line's open end, and sent as one `line` message when the player
// presses its button ("Play these 3 tiles"), never by itself: Take back works until then.
(function () {
  'use strict'

  var root = document.getElementById('table')
  if (!root) return

  var PING_AFTER = 20000 // ms of silence before an open socket is asked for a pong
  var PONG_WITHIN = 3000 // ms a pinged socket has to answer before it is replaced
  var MAX_DELAY = 8000 // the longest wait between reconnection attempts
  var GIVE_UP_HINT = 6 // failed attempts before the banner suggests a reload
  var DRAG_START = 8 // px a pointer moves before a press becomes a drag
  var FINAL = {
    4404: 'This table no longer exists.',
    4409: 'This seat is now open on another screen, so this one has stopped.',
    4413: 'The table closed this connection (a message was too big). Reload to carry on.',
    4429: 'The table closed this connection (too many messages). Reload to carry on.'
  }

  var view = JSON.parse(document.getElementById('table-view').textContent)
  var socket = null
  var attempts = 0
  var retryTimer = null
  var lastHeard = 0
  var probeTimer = null
  var finalReason = ''
  var stoppedBecause = '' // what the banner says once the socket closed for good
  var stopped = false
  var picked = null // the picked hand tile, as "low-high"
  var line = null // the first-turn line being built: {train, open, plays: [{tile, train, end}]}
  var press = null // a pointer pressed on a hand tile: {tile, x, y, id}
  var drag = null // the tile being dragged: {tile, ghost}
  var heldHtml = null // regions that arrived mid-drag, in order, swapped in when the drag ends
  var closedRound = null // the round whose end card this person closed
  var suppressClick = false
  var leaving = false // this page asked to play again: the answer, not the socket, moves it on

  // -- the socket ------------------------------------------------------------------------

  function connect () {
    if (stopped) return
    clearTimeout(retryTimer)
    var old = socket
    socket = null
    if (old) { old.onclose = old.onmessage = old.onopen = null; old.close() }
    var scheme = window.location.protocol === 'https:' ? 'wss://' : 'ws://'
    var ws = new window.WebSocket(scheme + window.location.host + root.dataset.socket)
    socket = ws
    ws.onopen = function () { if (ws === socket) { attempts = 0; lastHeard = Date.now(); tellSight() } }
    ws.onmessage = function (event) {
      if (ws !== socket) return
      lastHeard = Date.now()
      clearTimeout(probeTimer)
      receive(JSON.parse(event.data))
    }
    ws.onclose = function (event) { if (ws === socket) { socket = null; closed(event.code) } }
  }

  function closed (code) {
    if (code >= 4000 && code < 5000) { // final: say why and stay stopped
      stopped = true
      stoppedBecause = finalReason || FINAL[code] || 'The table closed this connection.'
      banner(stoppedBecause, code === 4409)
      return
    }
    attempts += 1
    banner(attempts >= GIVE_UP_HINT
      ? 'Still cannot reach the table; trying again. Reloading the page may help.'
      : 'Reconnecting… the table on this screen may be out of date.')
    retryTimer = setTimeout(connect, Math.min(MAX_DELAY, 500 * Math.pow(2, attempts - 1)))
  }

  function send (message) {
    if (!socket || socket.readyState !== window.WebSocket.OPEN) {
      // Stopped for good (the seat is open on another screen, say): the banner says why
      // and how to go on; trying again in a moment would never help.
      toast(stoppedBecause || 'Not connected to the table just now: try again in a moment.',
        !!stoppedBecause)
      return false
    }
    socket.send(JSON.stringify(message))
    return true
  }

  // A socket can claim to be open long after the network under it went away (a phone
  // that slept): ask it for a pong, and replace it if none comes.
  function probe () {
    if (socket && socket.readyState === window.WebSocket.CONNECTING) return
    if (!socket || socket.readyState !== window.WebSocket.OPEN) { attempts = 0; connect(); return }
    var asked = Date.now()
    socket.send(JSON.stringify({ type: 'ping' }))
    clearTimeout(probeTimer)
    probeTimer = setTimeout(function () { if (lastHeard < asked) connect() }, PONG_WITHIN)
  }

  function wake () { if (!stopped && document.visibilityState === 'visible') probe() }

  document.addEventListener('visibilitychange', wake)
  document.addEventListener('visibilitychange', tellSight)

  // Whether this page is in sight, for the alerts (games/alerts): a person with the table
  // in front of them is sent none. Each socket says it anew, since the server keeps it
  // for the socket that holds the seat.
  function tellSight () {
    if (view.seat === null || !socket || socket.readyState !== window.WebSocket.OPEN) return
    socket.send(JSON.stringify({ type: 'visibility', visible: document.visibilityState === 'visible' }))
  }

  // The alerts card's nudge (an own-pace table) is offered while somebody else is on turn.
  function offerNudge () {
    var waiting = view.game && !view.game.round_over && view.seat !== null && view.game.turn !== view.seat
    document.querySelectorAll('[data-nudge]').forEach(function (form) { form.hidden = !waiting })
  }
  window.addEventListener('pageshow', function (event) { if (event.persisted) wake() })
  window.addEventListener('online', wake)
  setInterval(function () {
    if (socket && socket.readyState === window.WebSocket.OPEN && Date.now() - lastHeard > PING_AFTER) probe()
  }, 5000)

  // -- what the table sends --------------------------------------------------------------

  function receive (message) {
    if (message.type === 'view') {
      banner('')
      show(message)
    } else if (message.type === 'error') {
      finalReason = message.message // kept in case a final close follows
      if (message.code !== 'stale') toast(message.message, true)
      if (line) { line = null; drawLine() }
      settle()
    } else if (message.type === 'replaced') {
      finalReason = message.message
    } else if (message.type === 'seat_granted' || message.type === 'seat_refused') {
      answered(message)
    } else if (message.type === 'moved' && !leaving) { // the match is played again at a new table
      rematched(message)
    }
  }

  // The match is being played again at a new table. The people here may still be reading
  // its results, so the page stays and says so over the top bar, with the way there: a
  // player takes their seat through the end card's own Play again form, which leaves for
  // the new table once the seat is theirs; a spectator follows the link.
  function rematched (message) {
    var notice = document.getElementById('table-rematch')
    if (notice && notice.dataset.url === message.url) return // said already (a reconnect)
    if (!notice) {
      notice = document.createElement('p')
      notice.id = 'table-rematch'
      notice.className = 'table-rematch'
      notice.setAttribute('role', 'status')
      root.prepend(notice)
    }
    notice.dataset.url = message.url
    var seated = !!root.querySelector('form[data-again]')
    var who = message.by || 'Somebody'
    notice.textContent = who + ' started a new match' + (seated ? ': take your seat.' : '.')
    var go
    if (seated) {
      go = document.createElement('button')
      go.type = 'button'
      go.textContent = 'Take your seat'
      go.addEventListener('click', function () {
        var again = root.querySelector('form[data-again]') // the card may have been redrawn
        if (again) again.requestSubmit()
      })
    } else {
      go = document.createElement('a')
      go.href = message.url
      go.textContent = 'Watch the new match'
    }
    go.className = 'button small'
    notice.append(' ', go)
    root.classList.add('is-rematched')
    fitRematch()
  }

  // The end card starts below the notice, however many lines it wraps to.
  function fitRematch () {
    var notice = document.getElementById('table-rematch')
    if (notice) root.style.setProperty('--rematch-height', notice.offsetHeight + 'px')
  }
  window.addEventListener('resize', fitRematch)

  function show (message) {
    if ((message.status === 'lobby') !== (root.dataset.status === 'lobby')) {
      window.location.reload() // the match started: the page changes from lobby to game
      return
    }
    view = message
    offerNudge()
    root.classList.remove('is-busy') // every view is complete: the next move builds on it
    if (drag) { heldHtml = (heldHtml || '') + message.html; return }
    swap(message.html)
  }

  // Swap each pushed region into the element with its id, keeping what the person was
  // looking at: the board's and the hand's scroll, each row's scroll, and the focus.
  function swap (html) {
    var template = document.createElement('template')
    template.innerHTML = html
    var kept = scrollState()
    var focus = focusKey(document.activeElement)
    Array.from(template.content.children).forEach(function (region) { // a copy: swapping empties it
      var old = region.id && document.getElementById(region.id)
      if (!old) return
      if (region.dataset.prepend) { prepend(old, region); return }
      keepCoach(old, region)
      keepInner(region)
      old.replaceWith(region)
      if (window.htmx) window.htmx.process(region)
    })
    arrangeBoard()
    arrangeHand()
    news()
    restoreScroll(kept)
    if (!dock() || dock().dataset.buildLine === undefined) line = null
    if (picked && !handTile(picked)) picked = null
    drawLine()
    showRoundCard()
    tick()
    restoreFocus(focus)
  }

  // The recent moves' new lines go on top of those shown, which keep the newest.
  function prepend (list, lines) {
    list.prepend.apply(list, Array.from(lines.children))
    while (list.children.length > Number(lines.dataset.prepend)) list.lastElementChild.remove()
  }

  // A region that comes without a part this page holds as it is (a dock without its hand)
  // marks the part's place (data-keep): the part the page holds goes there.
  function keepInner (region) {
    region.querySelectorAll('[data-keep]').forEach(function (spot) {
      var held = document.getElementById(spot.id)
      if (held) spot.replaceWith(held)
    })
  }

  // The coach's line on a round's card is fetched by the card (htmx): a view that redraws
  // the card of the same round keeps the line it has, and the person's ask with it.
  function keepCoach (old, region) {
    var line = old.querySelector('[data-coach]')
    var fresh = region.querySelector('[data-coach]')
    if (line && fresh && old.dataset.round && old.dataset.round === region.dataset.round) fresh.replaceWith(line)
  }

  // The server sends every seat the same board, in table order; this seat's train goes
  // first, then the public trains, then the others in seat order from this seat's. The
  // players' rows are the same for every seat too: this seat's own is marked here.
  function arrangeBoard () {
    var board = document.getElementById('table-board')
    if (!board || !view.game) return
    var me = view.seat === null ? 0 : view.seat
    var players = view.game.players
    function rank (lane) {
      if (lane.dataset.owner === undefined) return 1
      var owner = Number(lane.dataset.owner)
      return owner === view.seat ? 0 : 2 + (owner - me + players) % players
    }
    var lanes = Array.prototype.slice.call(board.querySelectorAll('.lane'))
    lanes.forEach(function (lane) { lane.classList.toggle('lane--mine', rank(lane) === 0) })
    lanes.sort(function (a, b) { return rank(a) - rank(b) }).forEach(function (lane) { board.appendChild(lane) })
    document.querySelectorAll('#table-players .member').forEach(function (member) {
      member.classList.toggle('member--me', Number(member.dataset.position) === view.seat)
    })
  }

  function scrollState () {
    var rows = {}
    document.querySelectorAll('.lane__row').forEach(function (row) {
      rows[row.dataset.row] = row.scrollWidth - row.clientWidth - row.scrollLeft > 4 ? row.scrollLeft : null
    })
    var board = document.getElementById('table-board')
    var hand = document.querySelector('.hand')
    return { rows: rows, board: board && board.scrollTop, hand: hand && hand.scrollLeft }
  }

  // A row the person had scrolled back stays where it was; every other row shows its
  // newest tile, at the end.
  function restoreScroll (kept) {
    document.querySelectorAll('.lane__row').forEach(function (row) {
      var left = kept.rows[row.dataset.row]
      row.scrollLeft = left === null || left === undefined ? row.scrollWidth : left
    })
    var board = document.getElementById('table-board')
    if (board && kept.board) board.scrollTop = kept.board
    var hand = document.querySelector('.hand')
    if (hand && kept.hand) hand.scrollLeft = kept.hand
  }

  function focusKey (element) {
    if (!element || element === document.body) return null
    if (element.matches('.tile--hand')) return '.tile--hand[data-tile="' + element.dataset.tile + '"]'
    if (element.matches('.slot')) return '.slot[data-train="' + element.dataset.train + '"][data-end="' + element.dataset.end + '"]'
    if (element.dataset.intent) return '[data-intent="' + element.dataset.intent + '"]'
    if (element.dataset.action) return '[data-action="' + element.dataset.action + '"]'
    return element.id ? '#' + element.id : null
  }

  function restoreFocus (key) {
    if (!key || document.activeElement !== document.body) return
    var element = document.querySelector(key)
    if (element && !element.disabled && !element.hidden) {
      element.focus({ preventScroll: true })
    } else if (key.indexOf('.tile--hand') === 0 || key.indexOf('.slot') === 0) {
      var next = document.querySelector('.tile--hand.tile--playable:not([hidden])') || document.querySelector('.tile--hand')
      if (next) next.focus({ preventScroll: true })
    }
  }

  // -- the hand, the slots and the first-turn line ---------------------------------------

  function dock () { return document.getElementById('table-dock') }
  function handTile (tile) { return document.querySelector('.tile--hand[data-tile="' + tile + '"]') }
  function numbers (tile) { return tile.split('-').map(Number) }
  function myTurn () { return view.game && view.seat !== null && view.game.turn === view.seat && !view.game.round_over }

  // Where a hand tile may go now: the server's list, or the line's open end while a
  // first-turn line is being built here.
  function targets (button) {
    if (button.hidden) return []
    if (line) {
      var ends = numbers(button.dataset.tile)
      return ends.indexOf(line.open) >= 0 ? [[line.train, 0]] : []
    }
    return JSON.parse(button.dataset.targets || '[]')
  }

  function goesTo (list, train, end) {
    return list.some(function (t) { return t[0] === train && t[1] === end })
  }

  // Light the slots: with a tile picked, only its targets; otherwise every slot some
  // tile can reach (so a slot can be tapped first when one tile fits it).
  function lightSlots () {
    var tiles = Array.prototype.slice.call(document.querySelectorAll('.tile--hand'))
    var chosen = picked && handTile(picked)
    var pickedTargets = chosen ? targets(chosen) : null
    tiles.forEach(function (button) {
      var list = targets(button)
      button.classList.toggle('tile--playable', list.length > 0)
      var on = button === chosen
      button.classList.toggle('tile--picked', on)
      button.setAttribute('aria-pressed', on ? 'true' : 'false')
    })
    document.querySelectorAll('.slot').forEach(function (slot) {
      var train = Number(slot.dataset.train)
      var end = Number(slot.dataset.end)
      var reachable = pickedTargets
        ? goesTo(pickedTargets, train, end)
        : tiles.some(function (b) { return goesTo(targets(b), train, end) })
      slot.disabled = !reachable
      slot.classList.toggle('slot--lit', Boolean(pickedTargets) && reachable)
    })
    root.classList.toggle('has-pick', Boolean(chosen))
  }

  function pick (button, fromKeyboard) {
    if (!myTurn()) {
      var turn = view.game && view.seats.find(function (s) { return s.position === view.game.turn })
      toast(view.seat === null ? 'You are watching: take a seat to play.' : 'It is not your turn' + (turn ? ': ' + turn.name + ' is to play.' : '.'))
      return
    }
    var list = targets(button)
    if (!list.length) { toast('That tile does not play now: pick a lit one.'); return }
    if (picked === button.dataset.tile) {
      if (list.length === 1) play(button.dataset.tile, list[0][0], list[0][1])
      else { picked = null; lightSlots() }
      return
    }
    picked = button.dataset.tile
    lightSlots()
    if (fromKeyboard) {
      var first = document.querySelector('.slot--lit')
      if (first) first.focus()
    }
  }

  function unpick () { if (picked) { picked = null; lightSlots() } }

  function tapSlot (slot) {
    var train = Number(slot.dataset.train)
    var end = Number(slot.dataset.end)
    if (picked) {
      if (goesTo(targets(handTile(picked)), train, end)) play(picked, train, end)
      return
    }
    var fitting = Array.prototype.filter.call(document.querySelectorAll('.tile--hand'), function (b) {
      return goesTo(targets(b), train, end)
    })
    if (fitting.length === 1) play(fitting[0].dataset.tile, train, end)
    else toast('Several tiles fit there: pick one first.')
  }

  function play (tile, train, end) {
    picked = null
    var building = dock() && dock().dataset.buildLine !== undefined
    if (line || (building && train === Number(dock().dataset.buildLine))) {
      extendLine(tile, train)
      return
    }
    if (send({ type: 'play', version: view.version, tile: numbers(tile), train: train, end: end })) busy()
  }

  function extendLine (tile, train) {
    if (!line) {
      var slot = document.querySelector('.slot[data-train="' + train + '"][data-end="0"]')
      line = { train: train, start: Number(slot.dataset.open), open: Number(slot.dataset.open), plays: [] }
    }
    var ends = numbers(tile)
    var touching = line.open
    var other = ends[0] === touching ? ends[1] : ends[0]
    line.plays.push({ tile: tile, touching: touching, open: other })
    line.open = other
    drawLine()
  }

  function sendLine () {
    if (!line || !line.plays.length) return
    var plays = line.plays.map(function (p) { return { tile: numbers(p.tile), train: line.train, end: 0 } })
    if (send({ type: 'line', version: view.version, plays: plays })) { keepLine(null); busy() }
  }

  // A line in progress lives only in this page until Done: kept in the tab's session
  // storage (per table and seat, with the version it was built on), a reload brings it
  // back as long as the table has not moved on and the dock still asks for a line.
  function lineKey () { return 'mexican-train:line:' + root.dataset.code + ':' + view.seat }

  function keepLine (kept) {
    try {
      if (kept && kept.plays.length) window.sessionStorage.setItem(lineKey(), JSON.stringify({ version: view.version, line: kept }))
      else window.sessionStorage.removeItem(lineKey())
    } catch (error) {} // storage refused (a private mode): the line lives in the page only
  }

  function keptLine () {
    var stored = null
    try { stored = JSON.parse(window.sessionStorage.getItem(lineKey())) } catch (error) { return null }
    var building = dock() && dock().dataset.buildLine
    if (!stored || stored.version !== view.version || building === undefined) return null
    var kept = stored.line
    var slot = kept && document.querySelector('.slot[data-train="' + kept.train + '"][data-end="0"]')
    if (!slot || kept.train !== Number(building) || kept.start !== Number(slot.dataset.open)) return null
    var open = kept.start
    var fits = kept.plays.every(function (p) {
      var ends = handTile(p.tile) ? numbers(p.tile) : []
      if (p.touching !== open || ends.indexOf(open) < 0) return false
      open = ends[0] === open ? ends[1] : ends[0]
      return p.open === open
    })
    return fits && kept.open === open ? kept : null
  }

  function undoLine () {
    if (!line) return
    line.plays.pop()
    line.open = line.plays.length ? line.plays[line.plays.length - 1].open : line.start
    if (!line.plays.length) line = null
    drawLine()
  }

  // Show the line being built: its tiles laid (as copies of the hand's drawings, turned so
  // the matching ends touch) before the slot of the player's train, and taken out of the hand.
  function drawLine () {
    document.querySelectorAll('.tile--pending').forEach(function (t) { t.remove() })
    document.querySelectorAll('.tile--hand[hidden]').forEach(function (t) { t.hidden = false })
    var done = document.querySelector('[data-action="send-line"]')
    var undo = document.querySelector('[data-action="undo-line"]')
    if (line) {
      var slot = document.querySelector('.slot[data-train="' + line.train + '"][data-end="0"]')
      line.plays.forEach(function (p) {
        var source = handTile(p.tile)
        if (!source) return
        source.hidden = true
        var laid = document.createElement('span')
        var ends = numbers(p.tile)
        var turn = ends[0] === ends[1] ? 'double' : (Math.max.apply(null, ends) === p.touching ? 'high-first' : 'low-first')
        laid.className = 'tile tile--laid tile--pending tile--' + turn
        laid.appendChild(source.querySelector('svg').cloneNode(true))
        slot.before(laid)
      })
      slot.textContent = line.open
      slot.parentNode.scrollLeft = slot.parentNode.scrollWidth
      var count = line.plays.length
      var send = count === 1 ? 'Play this tile' : 'Play these ' + count + ' tiles'
      if (done) done.textContent = send
      var more = Array.prototype.some.call(document.querySelectorAll('.tile--hand'), function (b) {
        return !b.hidden && numbers(b.dataset.tile).indexOf(line.open) >= 0
      })
      status('Your line: ' + count + ' tile' + (count === 1 ? '' : 's') + '. ' + (more
        ? 'Add a tile with a ' + line.open + ', or press ' + send + '.'
        : 'No other tile has a ' + line.open + ': press ' + send + ', or Take back.'))
    }
    if (done) done.hidden = !line
    if (undo) undo.hidden = !line
    keepLine(line)
    lightSlots()
  }

  // The status line is redrawn with the dock, so it is no live region: what it comes to
  // say is told to screen readers through the page's own (see news below).
  function status (text) {
    var element = document.getElementById('table-status')
    if (!element || element.textContent === text) return
    element.textContent = text
    say('table-said', text)
  }

  // Between sending a move and the view that answers it, nothing more can be sent.
  function busy () {
    root.classList.add('is-busy')
    document.querySelectorAll('#table-dock button, [data-intent], .slot').forEach(function (b) { b.disabled = true })
  }

  // A refusal: the buttons come back as the last view left them.
  function settle () {
    root.classList.remove('is-busy')
    document.querySelectorAll('#table-dock button, [data-intent]').forEach(function (b) { b.disabled = false })
    lightSlots()
  }

  function hint () {
    window.fetch(root.dataset.hint, { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
      .then(function (response) { return response.json() })
      .then(function (answer) {
        document.querySelectorAll('.tile--hinted').forEach(function (t) {
          t.classList.remove('tile--hinted')
          delete t.dataset.order
        })
        ;(answer.tiles || []).forEach(function (tile, i) {
          var button = handTile(Math.min(tile[0], tile[1]) + '-' + Math.max(tile[0], tile[1]))
          if (button) { button.classList.add('tile--hinted'); button.dataset.order = i + 1 }
        })
        toast(answer.message)
      })
      .catch(function () { toast('The hint could not be fetched: try again.', true) })
  }

  // -- arranging the hand -----------------------------------------------------------------
  //
  // The server sends the hand in deal order; the person arranges it here: sorted by suit
  // (by the higher number, then the lower) or by pips (the heaviest first), and any tile
  // moved by a drag onto the hand or by Alt+arrow. The order is this device's, kept in
  // localStorage per table and seat with the round it belongs to; every hand pushed is put
  // in it before it is shown (never mid-drag: the regions wait for the drop). A tile new
  // to the hand goes where the sort last chosen puts it, else at the end; a new round's
  // hand starts in that sort, or in deal order if none was chosen.

  var arranged = null // {sort, round, order}: read from storage once, then this page's

  function handKey () { return 'mexican-train:hand:' + root.dataset.code + ':' + view.seat }

  function keptArrangement () {
    if (arranged === null) {
      try { arranged = JSON.parse(window.localStorage.getItem(handKey())) || {} } catch (refused) { arranged = {} }
    }
    return arranged
  }

  function keepArrangement (sort, order) {
    arranged = { sort: sort || '', round: view.game.round, order: order }
    try { window.localStorage.setItem(handKey(), JSON.stringify(arranged)) } catch (refused) {} // kept by the page alone
  }

  // Negative when tile ``a`` comes before ``b`` in the sort: tiles are "low-high".
  function sorts (sort, a, b) {
    var x = numbers(a)
    var y = numbers(b)
    if (sort === 'pips' && x[0] + x[1] !== y[0] + y[1]) return y[0] + y[1] - x[0] - x[1]
    return y[1] - x[1] || y[0] - x[0]
  }

  function handTiles () {
    var hand = document.querySelector('.hand')
    return hand ? Array.prototype.slice.call(hand.querySelectorAll('.tile--hand')) : []
  }

  function arrangeHand () {
    var tiles = handTiles()
    if (!tiles.length || !view.game || view.seat === null) return
    var kept = keptArrangement()
    var byName = {}
    tiles.forEach(function (t) { byName[t.dataset.tile] = t })
    var order = (kept.round === view.game.round && kept.order ? kept.order : []).filter(function (t) { return byName[t] })
    tiles.forEach(function (t) {
      var tile = t.dataset.tile
      if (order.indexOf(tile) >= 0) return
      var at = kept.sort ? order.findIndex(function (other) { return sorts(kept.sort, tile, other) < 0 }) : -1
      order.splice(at < 0 ? order.length : at, 0, tile)
    })
    var hand = tiles[0].parentNode
    order.forEach(function (tile) { hand.appendChild(byName[tile]) })
    keepArrangement(kept.sort, order)
  }

  function sortHand (sort) {
    if (!handTiles().length) return
    keepArrangement(sort, handTiles().map(function (t) { return t.dataset.tile }).sort(function (a, b) { return sorts(sort, a, b) }))
    arrangeHand()
    say('table-said', 'Your hand is sorted by ' + (sort === 'pips' ? 'pips, the heaviest first.' : 'suit.'))
  }

  // How a tile is said: its higher number first, as its drawing's label says.
  function spoken (tile) { var n = numbers(tile); return n[1] + '-' + n[0] }

  // Put ``button`` before or after ``other`` in the hand, keep the order, and say where it went.
  function putTile (button, other, after) {
    if (button === other) return
    if (after) other.after(button)
    else other.before(button)
    var keyed = keptArrangement()
    var order = handTiles().map(function (t) { return t.dataset.tile })
    keepArrangement(keyed.sort, order)
    var shown = handTiles().filter(function (t) { return !t.hidden })
    say('table-said', spoken(button.dataset.tile) + ' moved to place ' + (shown.indexOf(button) + 1) + ' of ' + shown.length + '.')
  }

  // Alt+arrow: the focused tile swaps places with its shown neighbour, and keeps the focus.
  function moveTile (button, step) {
    var shown = handTiles().filter(function (t) { return !t.hidden })
    var other = shown[shown.indexOf(button) + step]
    if (!other) return
    putTile(button, other, step > 0)
    button.focus({ preventScroll: true })
  }

  // Where a tile dropped on the hand at (x, y) goes: beside the nearest other shown tile, on
  // the side the pointer is.
  function nearestTile (source, x, y) {
    var best = null
    handTiles().forEach(function (t) {
      if (t === source || t.hidden) return
      var box = t.getBoundingClientRect()
      var middle = box.left + box.width / 2
      var distance = Math.hypot(x - middle, y - (box.top + box.height / 2))
      if (!best || distance < best.distance) best = { tile: t, after: x > middle, distance: distance }
    })
    return best
  }

  // -- the round's end card --------------------------------------------------------------

  function showRoundCard () {
    var card = document.getElementById('table-round')
    if (card && card.dataset.round && card.dataset.round === closedRound) card.hidden = true
  }

  function tick () {
    // The host's offer of a bot for a person whose turn has run long shows from its time.
    document.querySelectorAll('form[data-offer-from]').forEach(function (form) {
      form.hidden = Date.parse(form.dataset.offerFrom) > Date.now()
    })
    var next = document.querySelector('[data-deadline]')
    var out = next && next.querySelector('[data-countdown]')
    if (!out) return
    var seconds = Math.max(0, Math.round((Date.parse(next.dataset.deadline) - Date.now()) / 1000))
    out.textContent = seconds + ' s'
  }
  setInterval(tick, 1000)

  // -- messages to the person ------------------------------------------------------------

  function banner (text, offerSeat) {
    var element = document.getElementById('table-banner')
    element.textContent = text
    element.hidden = !text
    if (offerSeat) {
      var again = document.createElement('button')
      again.type = 'button'
      again.className = 'button small'
      again.textContent = 'Play on this screen'
      again.addEventListener('click', function () { window.location.reload() })
      element.append(' ', again)
    }
  }

  function toast (text, refused) {
    var box = document.getElementById('table-toasts')
    var note = document.createElement('p')
    note.className = 'toast' + (refused ? ' toast--refused' : '')
    note.textContent = text
    note.addEventListener('click', function () { note.remove() }) // a tap clears it at once
    box.append(note)
    while (box.children.length > 3) box.firstElementChild.remove()
    setTimeout(function () { note.remove() }, 6000)
  }

  document.body.addEventListener('htmx:responseError', function (event) {
    toast(event.detail.xhr.responseText || 'That did not work: reload the page.', true)
  })

  // Asking to play again: the answer takes this page to the new table once the seat is in
  // its session, so the socket's word that the table has moved waits for it.
  root.addEventListener('submit', function (event) {
    if (event.target.matches('[data-again]')) leaving = true
  })
  document.body.addEventListener('htmx:afterRequest', function (event) {
    if (!event.detail.successful) leaving = false
  })

  // -- what just happened, and your turn --------------------------------------------------
  //
  // The regions are replaced wholesale by every view, and a replaced live region is not
  // announced reliably; so each view is compared with the one this page showed before it
  // (never the first: the page's own, on a load or a reload), and what changed is written
  // into two live regions the views never replace (table.html): the others' moves and the
  // status line politely, the start of this seat's own turn assertively. A hidden page then
  // says so in its title until it is looked at, and a seat that switched the turn alert on
  // (kept on this device) also gets a short sound and a vibration.

  var TURN_TITLE = '\u25cf Your turn \u2014 Mexican Train'
  var ALERT_KEY = 'mexican-train:turn-alert'
  var SAID_KEPT = 5 // lines the polite region keeps, for a screen reader's review
  var restingTitle = document.title
  var audio = null // made on a gesture only: browsers keep sound off until the person acts
  var heard = hearing()

  function statusText () {
    var element = document.getElementById('table-status')
    return element ? element.textContent.trim() : ''
  }

  // What a view has told the person: each seat's last move (by round, seat, where it starts
  // in the round's log and what it says, so a move that grew is told again), the status
  // line, and whether it was this seat's turn.
  function hearing () {
    var game = view.game
    return {
      moves: game ? game.last_moves.map(function (m) { return [game.round, m.seat, m.at, m.text].join(':') }) : [],
      status: statusText(),
      mine: Boolean(myTurn())
    }
  }

  function news () {
    markOwnMoves()
    drawAlertSwitch()
    var now = hearing()
    var said = []
    now.moves.forEach(function (key, i) { // newest first: told oldest first
      var move = view.game.last_moves[i]
      if (move.seat !== view.seat && heard.moves.indexOf(key) < 0) said.unshift(move.text)
    })
    // A view is drawn from the table as it is when it is sent, so a quick bot's answer can
    // arrive in the same view as this seat's own move: the turn came back if others moved.
    var started = now.mine && (!heard.mine || said.length > 0)
    if (now.status && now.status !== heard.status && !started) said.push(now.status)
    if (said.length) say('table-said', said.join(' '))
    if (started) {
      say('table-call', /^Your (first )?turn/.test(now.status) ? now.status : 'Your turn. ' + now.status)
      alertTurn()
    }
    heard = now
  }

  function say (id, text) {
    var region = document.getElementById(id)
    var line = document.createElement('p')
    line.textContent = text
    if (region.getAttribute('role') === 'alert') { region.replaceChildren(line); return }
    region.append(line) // an added line is what a log region announces
    while (region.children.length > SAID_KEPT) region.firstElementChild.remove()
  }

  // Every seat is sent the same marks of the last moves: this seat's own are dropped here.
  function markOwnMoves () {
    var me = view.seat === null ? '' : String(view.seat)
    document.querySelectorAll('.last-move').forEach(function (move) { move.hidden = move.dataset.seat === me })
    document.querySelectorAll('.last-moves').forEach(function (list) {
      list.hidden = !list.querySelector('.last-move:not([hidden])')
    })
    document.querySelectorAll('.tile--last').forEach(function (tile) {
      if (tile.dataset.lastBy === me) tile.classList.remove('tile--last')
    })
  }

  function alertTurn () {
    if (document.visibilityState === 'hidden') document.title = TURN_TITLE
    if (!alertOn()) return
    chime()
    if (navigator.vibrate) navigator.vibrate([150, 80, 150])
  }

  document.addEventListener('visibilitychange', function () {
    if (document.visibilityState === 'visible' && document.title === TURN_TITLE) document.title = restingTitle
  })

  // The choice is this device's: a private window may refuse storage, and then it is off.
  function alertOn () {
    try { return window.localStorage.getItem(ALERT_KEY) === 'on' } catch (refused) { return false }
  }

  function drawAlertSwitch () {
    var button = document.querySelector('[data-turn-alert]')
    if (!button) return
    button.hidden = view.seat === null
    button.setAttribute('aria-pressed', alertOn() ? 'true' : 'false')
    button.querySelector('[data-turn-alert-state]').textContent = alertOn() ? ': on' : ': off' // in words, not colour alone
  }

  root.addEventListener('click', function (event) {
    if (!event.target.closest('[data-turn-alert]')) return
    var on = !alertOn()
    try { window.localStorage.setItem(ALERT_KEY, on ? 'on' : 'off') } catch (refused) {
      toast('This browser does not keep settings here, so the turn alert stays off.', true)
    }
    drawAlertSwitch()
    if (on && wakeAudio()) audio.resume().then(chime) // the click is a gesture: a sample
  })

  // Sound may start only from a gesture, so the context is made (or resumed) on one.
  function wakeAudio () {
    var Context = window.AudioContext || window.webkitAudioContext
    if (!alertOn() || !Context) return false
    if (!audio) audio = new Context()
    if (audio.state === 'suspended') audio.resume()
    return true
  }

  document.addEventListener('pointerdown', wakeAudio)
  document.addEventListener('keydown', wakeAudio)

  // Two short rising tones, made here: no sound file to fetch or cache.
  function chime () {
    if (!audio || audio.state !== 'running') return
    var start = audio.currentTime
    ;[660, 880].forEach(function (pitch, i) {
      var at = start + i * 0.18
      var tone = audio.createOscillator()
      var level = audio.createGain()
      tone.frequency.value = pitch
      level.gain.setValueAtTime(0.0001, at)
      level.gain.exponentialRampToValueAtTime(0.25, at + 0.02)
      level.gain.exponentialRampToValueAtTime(0.0001, at + 0.3)
      tone.connect(level).connect(audio.destination)
      tone.start(at)
      tone.stop(at + 0.32)
    })
  }

  // -- taps, keys and drags --------------------------------------------------------------

  root.addEventListener('click', function (event) {
    if (suppressClick) { suppressClick = false; return }
    var target = event.target.closest('button')
    if (!target || target.disabled || !root.contains(target)) return
    var keyboard = event.detail === 0
    if (target.matches('.tile--hand')) pick(target, keyboard)
    else if (target.matches('.slot')) tapSlot(target)
    else if (target.dataset.claim) claim(target)
    else if (target.dataset.intent) {
      if (send({ type: target.dataset.intent, version: view.version })) busy()
    } else if (target.dataset.action) act(target.dataset.action)
  })

  function act (action) {
    var card = document.getElementById('table-round')
    if (action === 'send-line') sendLine()
    else if (action === 'sort-suit' || action === 'sort-pips') sortHand(action.slice(5))
    else if (action === 'undo-line') undoLine()
    else if (action === 'hint') hint()
    else if (action === 'close-round') { closedRound = card.dataset.round; card.hidden = true }
    else if (action === 'open-round') { closedRound = null; card.hidden = false; card.querySelector('button').focus() }
  }

  root.addEventListener('keydown', function (event) {
    if (event.key === 'Escape') {
      var card = document.getElementById('table-round')
      if (card && !card.hidden && card.dataset.round) act('close-round')
      unpick()
      return
    }
    var tile = event.target.closest('.tile--hand')
    if (!tile || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return
    if (event.altKey) { event.preventDefault(); moveTile(tile, event.key === 'ArrowLeft' ? -1 : 1); return }
    var tiles = Array.prototype.filter.call(document.querySelectorAll('.tile--hand'), function (t) { return !t.hidden })
    var next = tiles[tiles.indexOf(tile) + (event.key === 'ArrowLeft' ? -1 : 1)]
    if (next) { event.preventDefault(); next.focus() }
  })

  // Drag and drop: a press on a tile that moves DRAG_START px becomes a drag; a sideways
  // swipe on a touch screen scrolls the hand instead (touch-action: pan-x on the tiles).
  // A drop on a lit slot, or on a lane with one lit slot, plays; a drop on the hand moves
  // the tile there (any tile, at any time); a missed drop leaves a playable tile picked,
  // exactly as after a tap.
  root.addEventListener('pointerdown', function (event) {
    var tile = event.target.closest('.tile--hand')
    if (!tile || event.button !== 0) return
    press = { tile: tile.dataset.tile, x: event.clientX, y: event.clientY, plays: myTurn() && targets(tile).length > 0 }
  })

  document.addEventListener('pointermove', function (event) {
    if (!press) return
    if (!drag) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < DRAG_START) return
      var source = handTile(press.tile)
      if (press.plays) { picked = press.tile; lightSlots() }
      var ghost = source.cloneNode(true)
      ghost.classList.add('tile--ghost')
      ghost.removeAttribute('id')
      document.body.append(ghost)
      drag = { tile: press.tile, ghost: ghost, lift: event.pointerType === 'touch' ? 56 : 0 }
    }
    drag.ghost.style.left = event.clientX + 'px'
    drag.ghost.style.top = (event.clientY - drag.lift) + 'px'
  })

  document.addEventListener('pointerup', function (event) {
    var dropped = drag
    press = null
    if (!dropped) return
    drag = null
    dropped.ghost.remove()
    suppressClick = true
    setTimeout(function () { suppressClick = false }, 0)
    var source = handTile(dropped.tile)
    var under = document.elementFromPoint(event.clientX, event.clientY - dropped.lift)
    var where = source && under && dropTarget(under, targets(source))
    var intoHand = source && under && under.closest('.hand') && nearestTile(source, event.clientX, event.clientY - dropped.lift)
    if (intoHand) { unpick(); putTile(source, intoHand.tile, intoHand.after) }
    if (heldHtml !== null) { var html = heldHtml; heldHtml = null; swap(html) }
    if (where && handTile(dropped.tile)) play(dropped.tile, where[0], where[1])
  })

  document.addEventListener('pointercancel', function () {
    press = null
    if (!drag) return
    drag.ghost.remove()
    drag = null
    if (heldHtml !== null) { var html = heldHtml; heldHtml = null; swap(html) }
  })

  function dropTarget (element, list) {
    var slot = element.closest('.slot')
    if (slot) {
      var spot = [Number(slot.dataset.train), Number(slot.dataset.end)]
      return goesTo(list, spot[0], spot[1]) ? spot : null
    }
    var lane = element.closest('.lane')
    if (!lane) return null
    var inLane = list.filter(function (t) { return t[0] === Number(lane.dataset.train) })
    return inLane.length === 1 ? inLane[0] : null
  }

  // -- a seat asked back from another screen (a lost phone) -----------------------------

  // An ask, a cancel or an answer (data-claim, with data-position and data-approve): the
  // request's buttons wait for the view that answers it, or for a refusal (settle).
  function claim (button) {
    var message = { type: button.dataset.claim }
    if (button.dataset.position !== undefined) message.position = Number(button.dataset.position)
    if (button.dataset.approve !== undefined) message.approve = button.dataset.approve === 'true'
    if (send(message)) {
      button.closest('.claim').querySelectorAll('button').forEach(function (b) { b.disabled = true })
    }
  }

  // The answer to this screen's request: given, the page opens the seat's new link, which
  // puts the seat in this browser's session; refused, it says so.
  function answered (message) {
    if (message.type === 'seat_refused') { toast(message.message, true); return }
    stopped = true
    if (socket) socket.onclose = null // leaving: no reconnecting banner
    banner('The seat is yours again: opening it…')
    window.location.replace(message.url)
  }

  // -- start -----------------------------------------------------------------------------

  arrangeBoard()
  arrangeHand()
  markOwnMoves()
  drawAlertSwitch()
  offerNudge()
  restoreScroll({ rows: {} })
  line = keptLine()
  drawLine()
  tick()
  connect()
})()
