// Fake consent managers that behave as the real ones' page APIs do, for the recipes of
// docs/consent.md: the page's `?recipe=` picks one, and the recipe itself is read from the guide
// and run as the site would paste it (an inline script). `fakeCmp.answer(yes)` is the visitor
// answering the banner; `fakeCmp.returning(yes)` is a visitor whose answer the CMP stored earlier.
(function () {
  var recipe = new URLSearchParams(location.search).get('recipe');
  if (!recipe) return;
  /** @type {Window['fakeCmp']} */
  var cmp = (window.fakeCmp = {});

  if (recipe === 'tcf') {
    // IAB TCF v2.2 CMP API: __tcfapi('addEventListener', 2, callback(tcData, success)); the
    // callback runs at once with the current state and again on every change.
    var listeners = [];
    var tcData = { tcfPolicyVersion: 4, cmpId: 999, gdprApplies: true, eventStatus: 'cmpuishown', purpose: { consents: {}, legitimateInterests: {} } };
    window.__tcfapi = function (command, version, callback) {
      if (command === 'addEventListener' && version === 2) {
        var listener = { id: listeners.length + 1, callback: callback };
        listeners.push(listener);
        callback(Object.assign({}, tcData, { listenerId: listener.id }), true);
      } else if (command === 'ping') callback({ gdprApplies: true, cmpLoaded: true, cmpStatus: 'loaded', displayStatus: 'visible', apiVersion: '2.2' }, true);
    };
    cmp.answer = function (yes, status) {
      var consents = {};
      for (var purpose = 1; purpose <= 11; purpose++) consents[purpose] = yes;
      tcData = Object.assign({}, tcData, { eventStatus: status || 'useractioncomplete', purpose: { consents: consents, legitimateInterests: {} } });
      listeners.forEach(function (listener) {
        listener.callback(Object.assign({}, tcData, { listenerId: listener.id }), true);
      });
    };
  }

  if (recipe === 'gcm') {
    // Google Consent Mode v2 through the dataLayer, as gtag.js is called: the site's default, then
    // the CMP's update.
    window.dataLayer = window.dataLayer || [];
    window.gtag = function () {
      window.dataLayer.push(arguments);
    };
    window.gtag('consent', 'default', { ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', analytics_storage: 'denied', wait_for_update: 500 });
    cmp.answer = function (yes) {
      var value = yes ? 'granted' : 'denied';
      window.gtag('consent', 'update', { ad_storage: value, ad_user_data: value, ad_personalization: value, analytics_storage: value });
    };
  }

  if (recipe === 'onetrust') {
    // OneTrust: OnetrustActiveGroups lists the active category IDs (C0001 strictly necessary,
    // C0002 performance), and OptanonWrapper() is called once the SDK loaded and on every change.
    window.OnetrustActiveGroups = ',C0001,';
    var closed = false;
    window.OneTrust = {
      IsAlertBoxClosed: function () {
        return closed;
      },
    };
    // Its SDK loaded (after the site's own scripts, so after the recipe): OptanonWrapper runs once.
    cmp.loaded = function () {
      if (window.OptanonWrapper) window.OptanonWrapper();
    };
    cmp.answer = function (yes) {
      closed = true;
      window.OnetrustActiveGroups = yes ? ',C0001,C0002,C0003,C0004,' : ',C0001,';
      if (window.OptanonWrapper) window.OptanonWrapper();
    };
  }

  if (recipe === 'cookiebot') {
    // Cookiebot: window.Cookiebot.consent.{necessary,preferences,statistics,marketing}, and the
    // CookiebotOnAccept / CookiebotOnDecline events on window when the visitor answers.
    window.Cookiebot = { consented: false, declined: false, hasResponse: false, consent: { necessary: true, preferences: false, statistics: false, marketing: false } };
    cmp.answer = function (yes) {
      Object.assign(window.Cookiebot, { consented: yes, declined: !yes, hasResponse: true });
      Object.assign(window.Cookiebot.consent, { preferences: yes, statistics: yes, marketing: yes });
      window.dispatchEvent(new Event(yes ? 'CookiebotOnAccept' : 'CookiebotOnDecline'));
    };
  }

  // The recipe, as docs/consent.md has it: the block after `<!-- run by test/browsers/consent.ts -->`
  // whose first line names this consent manager.
  var names = { tcf: '__tcfapi', gcm: 'Consent Mode', onetrust: 'OneTrust', cookiebot: 'Cookiebot' };
  void fetch('/docs/consent.md')
    .then(function (response) {
      return response.text();
    })
    .then(function (text) {
      var blocks = text.split('<!-- run by test/browsers/consent.ts -->\n```js\n').slice(1);
      var block = blocks.map((b) => b.slice(0, b.indexOf('\n```'))).find((b) => b.split('\n')[0].indexOf(names[recipe]) !== -1);
      if (!block) throw new Error('no recipe for ' + recipe + ' in docs/consent.md');
      var script = document.createElement('script');
      script.textContent = block;
      document.head.append(script);
      if (cmp.loaded) cmp.loaded();
      cmp.ready = true;
    });
})();
