// The Share button of an invitation link (templates/common/share.html): the device's share
// sheet where it has one (phones), else a copy to the clipboard, with "Copied" said in the
// live region beside the button. One listener for the whole page, so a link drawn later
// (a seat's QR code the host asks for) gets it too.
(function () {
  'use strict'

  var canShare = typeof navigator.share === 'function'
  var SAID_FOR = 4000 // ms the word stays

  function ready () {
    document.querySelectorAll('.share[hidden]').forEach(function (box) {
      var button = box.querySelector('[data-share]')
      button.textContent = canShare ? 'Share the link' : 'Copy the link'
      box.hidden = false
    })
  }

  function say (button, text) {
    var said = button.parentElement.querySelector('.share__said')
    said.textContent = text
    clearTimeout(said.timer)
    said.timer = setTimeout(function () { said.textContent = '' }, SAID_FOR)
  }

  // navigator.clipboard needs a secure context (HTTPS or this machine); a table served over
  // plain HTTP on a home network copies the old way, from a selected text area.
  function copy (url) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(url)
    return new Promise(function (resolve, reject) {
      var area = document.createElement('textarea')
      area.value = url
      area.setAttribute('readonly', '')
      area.className = 'share__copy'
      document.body.append(area)
      area.select()
      var done = document.execCommand('copy')
      area.remove()
      if (done) resolve(); else reject(new Error('copy refused'))
    })
  }

  function copied (button, url) {
    copy(url).then(
      function () { say(button, 'Copied') },
      function () { say(button, 'Could not copy: select the link above and copy it.') }
    )
  }

  document.addEventListener('click', function (event) {
    var button = event.target.closest('[data-share]')
    if (!button) return
    var url = button.dataset.share
    if (!canShare) { copied(button, url); return }
    navigator.share({ title: document.title, url: url }).catch(function (error) {
      if (error.name !== 'AbortError') copied(button, url) // closing the sheet is no failure
    })
  })

  // htmx draws some links later (a seat's QR code): show their buttons as they come.
  document.addEventListener('htmx:afterSettle', ready)
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', ready)
  else ready()
})()
