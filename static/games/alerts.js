// The table's alerts card (templates/games/cards/alerts.html): Web Push on this device.
//
// Nothing is asked on load: the browser's permission prompt comes only from the button.
// Pressed, it registers the tables' service worker (/t/sw.js, scope /t/), asks for the
// permission, subscribes with the server's key and sends the subscription to the table;
// pressed again, the table stops alerting this device. The worker shows what the server pushes.
(function () {
  'use strict'

  var box = document.querySelector('[data-push]')
  if (!box) return
  var button = box.querySelector('[data-push-button]')
  var said = box.querySelector('[data-push-said]')
  var busy = false

  function say (text) { said.textContent = text }

  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    say('This browser cannot alert you with the page closed: give an e-mail address instead.')
    return
  }

  function csrf () {
    try { return JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken'] } catch (error) { return '' }
  }

  function post (url, data) {
    return window.fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRFToken': csrf() },
      body: JSON.stringify(data)
    }).then(function (response) {
      return response.json().then(function (answer) {
        if (!response.ok) throw new Error(answer.message || 'The table did not take it: try again.')
        return answer
      })
    })
  }

  // The key the server signs with, as pushManager.subscribe wants it.
  function serverKey () {
    var text = box.dataset.key.replace(/-/g, '+').replace(/_/g, '/')
    var raw = window.atob(text + '='.repeat((4 - text.length % 4) % 4))
    return Uint8Array.from(raw, function (c) { return c.charCodeAt(0) })
  }

  function registration () { return navigator.serviceWorker.getRegistration(box.dataset.scope) }

  function subscription () {
    return registration().then(function (reg) { return reg ? reg.pushManager.getSubscription() : null })
  }

  // A registration whose worker is active: only then can it subscribe.
  function active (reg) {
    if (reg.active) return Promise.resolve(reg)
    return new Promise(function (resolve) {
      var worker = reg.installing || reg.waiting
      worker.addEventListener('statechange', function () { if (worker.state === 'activated') resolve(reg) })
    })
  }

  function show (on) {
    button.hidden = false
    button.textContent = on ? 'Stop alerts on this device' : "Tell me on this device when it's my turn"
    button.setAttribute('aria-pressed', on ? 'true' : 'false')
  }

  function turnOn () {
    return window.Notification.requestPermission().then(function (permission) {
      if (permission !== 'granted') {
        throw new Error('This browser blocks notifications from this site: allow them in its settings, or give an e-mail address.')
      }
      return navigator.serviceWorker.register(box.dataset.worker, { scope: box.dataset.scope })
    }).then(active).then(function (reg) {
      return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: serverKey() })
    }).then(function (sub) {
      return post(box.dataset.subscribe, sub.toJSON())
    }).then(function (answer) { show(true); say(answer.message) })
  }

  // Off for this seat alone: the browser's one subscription serves every table of this
  // site on this device, so it stays for the others.
  function turnOff () {
    return subscription().then(function (sub) {
      if (!sub) return { message: 'This device sends no alerts.' }
      return post(box.dataset.unsubscribe, { endpoint: sub.endpoint })
    }).then(function (answer) { show(false); say(answer.message) })
  }

  button.addEventListener('click', function () {
    if (busy) return
    busy = true
    var on = button.getAttribute('aria-pressed') === 'true'
    say(on ? 'Stopping…' : 'Asking this browser…')
    ;(on ? turnOff() : turnOn()).catch(function (error) {
      say(error && error.message && error.name === 'Error' ? error.message
        : 'This browser could not subscribe to alerts (' + (error && error.name) + '): give an e-mail address instead.')
    }).then(function () { busy = false })
  })

  // On if this device's subscription is one the table holds for this seat.
  var mine = JSON.parse(box.dataset.endpoints || '[]')
  subscription().then(function (sub) {
    var on = !!sub && window.Notification.permission === 'granted' && mine.indexOf(sub.endpoint) >= 0
    show(on)
    if (on) say('This device tells you when it is your turn.')
  }).catch(function () { show(false) })
})()
