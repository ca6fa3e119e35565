{% load static %}// The tables' service worker (scope /t/): shows an alert pushed by the server as a
// notification, and opens the table at the person's seat when it is tapped. It keeps no
// file and answers no request: the table needs its socket, and the score sheet's worker
// (/sw.js) is the one that works offline.
'use strict'

self.addEventListener('install', function () { self.skipWaiting() })
self.addEventListener('activate', function (event) { event.waitUntil(self.clients.claim()) })

self.addEventListener('push', function (event) {
  var alert = {}
  try { alert = event.data ? event.data.json() : {} } catch (error) { alert = {} }
  var url = new URL(alert.url || '/t/', self.location.origin)
  if (url.origin !== self.location.origin) url = new URL('/t/', self.location.origin) // only this site's pages
  event.waitUntil(self.registration.showNotification(alert.title || 'Mexican Train', {
    body: alert.body || 'Your table has news for you.',
    tag: url.pathname, // one notification a table: the newest replaces the one before
    renotify: true,
    icon: '{% static 'icon.svg' %}',
    data: { url: url.href }
  }))
})

self.addEventListener('notificationclick', function (event) {
  event.notification.close()
  var url = (event.notification.data && event.notification.data.url) || '/t/'
  event.waitUntil(self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(function (windows) {
    var table = new URL(url).pathname.split('/').slice(0, 3).join('/') + '/' // /t/<code>/
    var open = windows.find(function (w) { return new URL(w.url).pathname.indexOf(table) === 0 })
    return open ? open.focus() : self.clients.openWindow(url)
  }))
})
