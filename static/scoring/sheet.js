// The score sheet on a phone: the cell editor, the outbox and the banners.
//
// The sheet itself is server-rendered; htmx-ext-ws swaps in every region the server pushes.
// This script only does what needs the phone: an entry goes into an outbox kept in IndexedDB
// (so it survives no signal and a reload), shows at once as pending, and is sent over the
// socket whenever the phone can (on connect, when back online, on returning to the tab, on
// load) until the server acknowledges it. Each entry carries a client id, so a resend is
// applied once, and the cell version it was based on, so a stale one is refused.
(function () {
  'use strict'

  var live = document.getElementById('live')
  if (!live) return
  var code = live.dataset.match
  var editor = document.getElementById('editor')
  var outbox = new Map() // cell element id -> edit, mirrored in IndexedDB
  var wrapper = null // htmx-ext-ws socket wrapper (send, reconnect)
  var openSocket = null // the WebSocket that is open now, if any
  var silence = null // timer: a socket that does not answer a sync is replaced
  var ANSWER_WITHIN = 4000 // ms an open editor waits for the server's answer to a save
  var current = null // the cell the editor is open for, and the version it showed then
  var awaited = null // the client id of the entry an open editor waits to hear about
  var waitTimer = null // an answer that does not come leaves the entry to the outbox

  // -- IndexedDB: one store, one record per cell with an entry waiting -----------------
  // Where IndexedDB is missing (some private modes) the outbox still works, in memory only.

  var database = new Promise(function (resolve, reject) {
    var request = indexedDB.open('score-sheet', 1)
    request.onupgradeneeded = function () {
      request.result.createObjectStore('outbox', { keyPath: 'key' })
    }
    request.onsuccess = function () { resolve(request.result) }
    request.onerror = function () { reject(request.error) }
  })

  function withStore (mode, work) {
    return database.then(function (db) {
      return new Promise(function (resolve, reject) {
        var transaction = db.transaction('outbox', mode)
        var request = work(transaction.objectStore('outbox'))
        transaction.oncomplete = function () { resolve(request.result) }
        transaction.onerror = function () { reject(transaction.error) }
      })
    }).catch(function () {})
  }

  function loadOutbox () {
    return withStore('readonly', function (store) { return store.getAll() }).then(function (edits) {
      (edits || []).forEach(function (edit) { if (edit.match === code) outbox.set(edit.cell, edit) })
    })
  }

  function keep (edit) {
    outbox.set(edit.cell, edit)
    return withStore('readwrite', function (store) { return store.put(edit) })
  }

  function forget (clientId) {
    var found = Array.from(outbox.values()).find(function (edit) { return edit.client_id === clientId })
    if (!found) return Promise.resolve()
    outbox.delete(found.cell)
    return withStore('readwrite', function (store) { return store.delete(found.key) })
  }

  // -- sending ---------------------------------------------------------------------------

  function clientId () {
    if (window.crypto.randomUUID) return window.crypto.randomUUID()
    // Plain HTTP on a LAN has no randomUUID: build a version-4 UUID by hand.
    var bytes = window.crypto.getRandomValues(new Uint8Array(16))
    bytes[6] = (bytes[6] & 15) | 64
    bytes[8] = (bytes[8] & 63) | 128
    var hex = Array.from(bytes, function (b) { return b.toString(16).padStart(2, '0') }).join('')
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-')
  }

  function enter (round, seat, baseVersion, value) {
    var cell = 'cell-' + round + '-' + seat
    var edit = {
      key: code + ':' + cell,
      match: code,
      cell: cell,
      client_id: clientId(),
      round: round,
      seat: seat,
      base_version: baseVersion,
      value: value,
      shown: shownAs(value)
    }
    keep(edit).then(function () { showPending(); send() })
    showPending()
    return edit
  }

  function send () {
    if (!openSocket || !navigator.onLine) return
    outbox.forEach(function (edit) {
      wrapper.send(JSON.stringify({
        action: 'entry',
        client_id: edit.client_id,
        round: edit.round,
        seat: edit.seat,
        base_version: edit.base_version,
        value: edit.value
      }))
    })
  }

  function acknowledged (ack) {
    forget(ack.ack).then(function () {
      showPending()
      if (editor.open) refreshEditorCell() // a refused entry no longer waits to be sent
    })
    if (ack.ack !== awaited) return
    stopWaiting()
    if (ack.outcome !== 'refused' || !editor.open) { editor.close(); return }
    // Said beside the button that saved it, and once: not also as a notice.
    var slot = field(current.saving === 'tiles' ? 'picker-error' : 'error')
    slot.textContent = ack.message
    slot.scrollIntoView({ block: 'nearest' })
    document.querySelectorAll('#notices .notice[data-entry="' + CSS.escape(ack.ack) + '"]').forEach(function (notice) {
      notice.remove()
    })
  }

  function shownAs (value) {
    if (value.kind === 'out') return 'out'
    if (value.kind === 'blank') return '–'
    if (value.kind === 'count') return String(value.pips)
    return String(value.tiles.reduce(function (sum, t) { return sum + t[0] + t[1] }, 0))
  }

  // -- what the page shows ---------------------------------------------------------------

  function showPending () {
    document.querySelectorAll('.cell[data-pending]').forEach(function (cell) {
      if (!outbox.has(cell.id)) cell.removeAttribute('data-pending')
    })
    outbox.forEach(function (edit) {
      var cell = document.getElementById(edit.cell)
      if (cell) cell.dataset.pending = edit.shown
    })
    var waiting = document.getElementById('outbox')
    waiting.hidden = outbox.size === 0
    waiting.textContent = outbox.size === 1
      ? '1 entry waiting to be sent'
      : outbox.size + ' entries waiting to be sent'
  }

  var offlineTimer = null
  function showConnection () {
    clearTimeout(offlineTimer)
    live.dataset.connection = openSocket ? 'open' : 'closed' // for tests and styles
    var banner = document.getElementById('connection')
    if (openSocket && navigator.onLine) {
      banner.hidden = true
    } else {
      // A socket that comes straight back is not worth a banner.
      offlineTimer = setTimeout(function () { banner.hidden = !!(openSocket && navigator.onLine) },
        navigator.onLine ? 1500 : 0)
    }
  }

  function localTimes () {
    document.querySelectorAll('time[datetime]').forEach(function (time) {
      var at = new Date(time.getAttribute('datetime'))
      time.textContent = at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
    })
  }

  // -- the socket (htmx-ext-ws events) ----------------------------------------------------

  live.addEventListener('htmx:wsOpen', function (event) {
    wrapper = event.detail.socketWrapper
    openSocket = event.detail.event.target
    showConnection()
    send()
  })

  live.addEventListener('htmx:wsClose', function (event) {
    wrapper = event.detail.socketWrapper
    // A replaced socket closing late must not mark the new one closed.
    if (event.detail.event.target === openSocket) openSocket = null
    showConnection()
    if (!openSocket) leaveToOutbox()
  })

  live.addEventListener('htmx:wsBeforeMessage', function (event) {
    var message = event.detail.message
    if (message.charAt(0) !== '{') return // HTML: htmx swaps it in
    event.preventDefault()
    acknowledged(JSON.parse(message))
  })

  live.addEventListener('htmx:wsAfterMessage', function () {
    clearTimeout(silence)
    showPending()
    localTimes()
    if (current && editor.open) refreshEditorCell()
  })

  function reconnect () {
    if (!openSocket && wrapper) wrapper.reconnect()
  }

  window.addEventListener('online', function () { showConnection(); reconnect(); send() })
  window.addEventListener('offline', function () { showConnection(); leaveToOutbox() })
  // Back on the tab (a phone unlocked): a socket that says it is open may be dead. Ask for
  // the sheet; if nothing comes back, replace the socket.
  document.addEventListener('visibilitychange', function () {
    if (document.visibilityState !== 'visible') return
    if (!openSocket) return reconnect()
    wrapper.send(JSON.stringify({ action: 'sync' }))
    clearTimeout(silence)
    silence = setTimeout(function () { wrapper.reconnect() }, 4000)
    send()
  })

  // -- the editor --------------------------------------------------------------------------

  function field (name) { return editor.querySelector('[data-field="' + name + '"]') }

  function openEditor (cell) {
    // A tap can reach here twice (a touch whose cell a push replaced: its release, then the
    // browser's click): the editor that is open already keeps what was typed in it.
    if (editor.open) return
    stopWaiting()
    // The edit is based on what the phone showed when the editor opened: if the cell
    // changes before Save, the server finds the edit stale instead of overwriting.
    var waiting = outbox.get(cell.id)
    current = {
      round: +cell.dataset.round,
      seat: +cell.dataset.seat,
      version: waiting ? waiting.base_version : +cell.dataset.version
    }
    field('round').textContent = cell.dataset.round
    field('player').textContent = cell.dataset.player
    field('error').textContent = field('picker-error').textContent = ''
    var value = JSON.parse(cell.dataset.value)
    var form = editor.querySelector('.count-form')
    form.pips.value = value.kind === 'count' ? value.pips : ''
    form.doubles.value = value.kind === 'count' ? value.doubles : 0
    form.double_blank.checked = value.kind === 'count' && value.double_blank
    form.blanks.value = value.kind === 'count' ? value.blanks || 0 : 0
    onDouble().checked = value.kind === 'out' && !!value.on_double
    // The house rules that ask more of an entry show their field only while they count
    // (or while the cell holds something in it, so a save never drops it unseen).
    var rules = document.getElementById('settings').dataset
    editor.querySelector('.doubles-held').hidden = rules.doublePenalty === '0' && !+form.doubles.value
    editor.querySelector('.double-blank-held').hidden = rules.doubleBlank === '0' && !form.double_blank.checked
    editor.querySelector('.blank-halves').hidden = rules.blankValue === '0' && !+form.blanks.value
    editor.querySelector('.on-double').hidden = rules.outOnDouble === '0' && !onDouble().checked
    var held = (value.tiles || []).map(function (t) { return t[0] + '-' + t[1] })
    var engine = cell.dataset.double + '-' + cell.dataset.double
    editor.querySelectorAll('.tile').forEach(function (tile) {
      var holds = held.indexOf(tile.dataset.tile) >= 0
      // The round's double is in the hub, unless the hand holds it (entered before the
      // rounds changed): then it shows, pressed, so a save never drops it unseen.
      tile.hidden = tile.dataset.tile === engine && !holds
      tile.setAttribute('aria-pressed', String(holds))
    })
    editor.querySelector('.picker').open = value.kind === 'tiles'
    document.getElementById('cell-history').textContent = ''
    refreshEditorCell()
    summarisePicked()
    editor.showModal()
  }

  function onDouble () {
    return editor.querySelector('input[name="on_double"]')
  }

  function editedCell () {
    return document.getElementById('cell-' + current.round + '-' + current.seat)
  }

  // The cell can change under an open editor (a push): show what it holds now.
  function refreshEditorCell () {
    var cell = editedCell()
    if (cell) field('text').textContent = cell.dataset.pending ? cell.dataset.pending + ' (waiting to be sent)' : cell.dataset.text
  }

  // Digits too many for a JavaScript number go as typed: the server's refusal then names
  // the number typed, not a rounded one.
  function typed (digits) {
    return Number.isSafeInteger(+digits) ? +digits : digits
  }

  function picked () {
    return Array.from(editor.querySelectorAll('.tile[aria-pressed="true"]:not([hidden])'), function (tile) {
      return tile.dataset.tile.split('-').map(Number)
    })
  }

  function summarisePicked () {
    var tiles = picked()
    var pips = tiles.reduce(function (sum, t) { return sum + t[0] + t[1] }, 0)
    var doubles = tiles.filter(function (t) { return t[0] === t[1] }).length
    // Doubles are counted aloud only where the house rules give them a penalty.
    var counted = document.getElementById('settings').dataset.doublePenalty !== '0'
    field('picked').textContent = tiles.length === 0
      ? 'No tiles picked.'
      : tiles.length + (tiles.length === 1 ? ' tile: ' : ' tiles: ') + pips + ' pips' +
        (counted ? ', ' + doubles + (doubles === 1 ? ' double.' : ' doubles.') : '.')
  }

  // With a connection, the editor stays open until the server answers, so an entry it
  // refuses (a count no hand from the set can hold) is said where it was typed, and the
  // typing is still there to correct. With none, or no answer in time, the entry waits in
  // the outbox like any other, and a refusal later comes as a notice.
  function save (value) {
    // A cell that already waits to be sent gets this entry instead, on the same version.
    var edit = enter(current.round, current.seat, current.version, value)
    field('error').textContent = field('picker-error').textContent = ''
    current.saving = value.kind
    if (!openSocket || !navigator.onLine) { editor.close(); return }
    awaited = edit.client_id
    editor.classList.add('is-saving')
    clearTimeout(waitTimer)
    waitTimer = setTimeout(leaveToOutbox, ANSWER_WITHIN)
  }

  function stopWaiting () {
    awaited = null
    clearTimeout(waitTimer)
    editor.classList.remove('is-saving')
  }

  function leaveToOutbox () {
    if (!awaited) return
    stopWaiting()
    editor.close()
  }

  if (editor) {
    live.addEventListener('click', function (event) {
      var cell = event.target.closest('button.cell')
      if (cell) openEditor(cell)
    })

    // A push replaces #sheet, cell buttons and all. The browser fires no click for a press
    // whose button was removed before the release, so a tap that a push lands in would be
    // lost: a release on the cell that took the pressed one's place opens it instead. And
    // the focus follows a focused cell to its new button, so a keyboard's Enter opens it.
    // The editor opened that way is under the finger before the browser's click for the
    // same tap arrives: that click must not press the editor's button there (Went out).
    var pressed = null // the cell button under a press, from pointerdown to pointerup
    var focused = null // the id of the cell that had the focus when a push replaced it
    var ghostClick = false // the click of the tap that opened the editor is still to come

    document.addEventListener('pointerdown', function (event) {
      ghostClick = false
      pressed = live.contains(event.target) && event.target.closest('button.cell')
    })
    document.addEventListener('keydown', function () { ghostClick = false }) // Enter clicks too

    live.addEventListener('pointerup', function (event) {
      var cell = event.target.closest('button.cell')
      if (cell && pressed && !pressed.isConnected && cell.id === pressed.id) {
        openEditor(cell)
        ghostClick = true
      }
      pressed = null
    })

    editor.addEventListener('click', function (event) {
      if (!ghostClick) return
      ghostClick = false
      event.preventDefault()
      event.stopImmediatePropagation()
    }, true)

    live.addEventListener('htmx:oobBeforeSwap', function (event) {
      var active = document.activeElement
      if (active && active.matches('button.cell') && event.detail.target.contains(active)) {
        focused = active.id
      }
    })

    live.addEventListener('htmx:wsAfterMessage', function () {
      var cell = focused && document.getElementById(focused)
      focused = null
      if (cell && !editor.open) cell.focus()
    })

    editor.querySelector('.count-form').addEventListener('submit', function (event) {
      event.preventDefault()
      var form = event.target
      var pips = form.pips.value.trim()
      // Doubles not asked about count only as the double-blank, where that is asked.
      var doubles = editor.querySelector('.doubles-held').hidden
        ? (form.double_blank.checked ? '1' : '0')
        : form.doubles.value.trim() || '0'
      var blanks = form.blanks.value.trim() || '0'
      if (!/^\d+$/.test(pips) || !/^\d+$/.test(doubles) || !/^\d+$/.test(blanks)) {
        field('error').textContent = 'Type the pips left in hand as a whole number, 0 or more.'
        return
      }
      var count = { kind: 'count', pips: typed(pips), doubles: typed(doubles), double_blank: form.double_blank.checked }
      if (+blanks) count.blanks = typed(blanks)
      save(count)
    })

    editor.addEventListener('click', function (event) {
      var tile = event.target.closest('.tile')
      if (tile) {
        tile.setAttribute('aria-pressed', String(tile.getAttribute('aria-pressed') !== 'true'))
        summarisePicked()
        return
      }
      var action = event.target.closest('[data-action]')
      if (!action) return
      var name = action.dataset.action
      if (name === 'close') { stopWaiting(); editor.close() }
      if (name === 'out') save(onDouble().checked ? { kind: 'out', on_double: true } : { kind: 'out' })
      if (name === 'clear') save({ kind: 'blank' })
      if (name === 'tiles') {
        if (picked().length === 0) field('picked').textContent = 'Tap the tiles you hold first, or use Went out.'
        else save({ kind: 'tiles', tiles: picked() })
      }
      if (name === 'history') {
        htmx.ajax('GET', live.dataset.history + '?round=' + current.round + '&seat=' + current.seat,
          { target: '#cell-history', swap: 'innerHTML' }).then(localTimes)
      }
    })
  }

  // -- notices and the rest ----------------------------------------------------------------

  document.addEventListener('click', function (event) {
    var retry = event.target.closest('[data-retry]')
    if (retry) {
      var edit = JSON.parse(retry.dataset.retry)
      enter(edit.round, edit.seat, edit.base_version, edit.value)
    }
    // Taking back somebody else's change, confirmed in the notice that asked.
    var undo = event.target.closest('[data-undo]')
    if (undo && wrapper) wrapper.send(undo.dataset.undo)
    if (retry || (undo && wrapper) || event.target.closest('[data-dismiss]')) {
      event.target.closest('.notice').remove()
    }
    if (event.target.closest('[data-action="print"]')) window.print()
  })

  // The service worker keeps a copy of this page for opening it with no signal: now, and
  // fresh each time the phone puts the page in the background (it may come back offline).
  function keepPage () {
    navigator.serviceWorker.ready.then(function (registration) {
      registration.active.postMessage({ keep: location.pathname })
    })
  }
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.onmessage = function (event) {
      if (event.data && event.data.kept === location.pathname) live.dataset.offline = 'ready'
    }
    navigator.serviceWorker.register(live.dataset.worker).then(keepPage)
    document.addEventListener('visibilitychange', function () {
      if (document.visibilityState === 'hidden' && navigator.onLine) keepPage()
    })
  }
  localTimes()
  loadOutbox().then(function () { showPending(); send() })
  showConnection()
})()
