// The score sheet's service worker: keeps the sheet usable with no signal.
// Sheet pages come from the network when there is one (and a copy is kept); with no
// signal the last copy is shown, and sheet.js shows and resends what was entered meanwhile. Static
// files come from the cache at once and are refreshed behind the scenes. Everything else
// (other pages, exports, websockets, anything but GET) is left to the network untouched.
const CACHE = '{{ cache }}'
const FILES = [{% for file in files %}'{{ file }}'{% if not forloop.last %}, {% endif %}{% endfor %}]
const STATIC = '{{ static_url }}'
const SHEET_PAGE = /^\/(s|w)\/(?!new\/)[^/]+\/$/

self.addEventListener('install', function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(FILES) }).then(function () { return self.skipWaiting() }))
})

self.addEventListener('activate', function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name !== CACHE }).map(function (name) { return caches.delete(name) }))
  }).then(function () { return self.clients.claim() }))
})

// A sheet page asks to be kept (on its first visit, and each time it goes to the
// background), so that it opens with no signal, as up to date as it can be; the page
// hears back once it is.
self.addEventListener('message', function (event) {
  const path = event.data && event.data.keep
  if (typeof path !== 'string' || !SHEET_PAGE.test(path)) return
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.add(path) }).then(function () {
    if (event.source) event.source.postMessage({ kept: path })
  }).catch(function () {}))
})

self.addEventListener('fetch', function (event) {
  const request = event.request
  const url = new URL(request.url)
  if (request.method !== 'GET' || url.origin !== self.location.origin) return
  if (url.pathname.startsWith(STATIC)) event.respondWith(cachedThenRefreshed(request))
  else if (request.mode === 'navigate' && SHEET_PAGE.test(url.pathname)) event.respondWith(networkThenCached(request))
})

function cachedThenRefreshed (request) {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(request).then(function (cached) {
      const fresh = fetch(request).then(function (response) {
        if (response.ok) cache.put(request, response.clone())
        return response
      }).catch(function () { return cached || Response.error() })
      return cached || fresh
    })
  })
}

function networkThenCached (request) {
  return caches.open(CACHE).then(function (cache) {
    return fetch(request).then(function (response) {
      if (response.ok) cache.put(request, response.clone())
      return response
    }).catch(function () {
      return cache.match(request, { ignoreVary: true }).then(function (cached) { return cached || Response.error() })
    })
  })
}
