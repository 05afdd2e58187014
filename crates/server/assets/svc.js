/* Payback tracking snippet: svc.track(stage, props), svc.identify(id, traits) */
((w, d) => {
  const old = w.svc;
  if (old && old.track) return;
  const s = d.currentScript || d.querySelector('script[src*="/svc.js"][data-key]');
  const key = s && s.dataset.key;
  const url = key && new URL('t/events', s.src); // keeps a path prefix
  const STAGES = 'impression visit engaged lead qualified signup activated converted payment churned'.split(' ');
  const PARAMS = 'utm_source utm_medium utm_campaign utm_content utm_term utm_id gclid gbraid wbraid fbclid li_fat_id msclkid'.split(' ');
  let ls = {}; // blocked storage: this page only
  try { ls = localStorage; } catch (e) {}
  const rand = () => crypto.getRandomValues(new Uint32Array(4)).join('');
  // One over-long field fails the whole batch.
  const cut = (v, n) => v ? String(v).slice(0, n) : undefined;
  const now = Date.now;

  // A cookie keeps the id when localStorage is cleared.
  const c = d.cookie.match(/\bsvc_aid=(\w+)/);
  const aid = ls.svc_aid || (c && c[1]) || rand();
  ls.svc_aid = aid;
  d.cookie = `svc_aid=${aid};path=/;max-age=63072000`;

  // svc_attr: {a: landing attribution, t: last event}
  const session = () => { try { return JSON.parse(ls.svc_attr) || {}; } catch (e) { return {}; } };
  const live = st => st.a && now() - st.t < 18e5 /* 30 min */;
  const land = first => {
    const q = new URLSearchParams(location.search), a = {};
    let tagged;
    for (const p of PARAMS) if (a[p] = cut(q.get(p), 2048)) tagged = 1;
    // A new session or a new ad click replaces the landing.
    if (!tagged && live(session())) return;
    const r = first && d.referrer;
    if (r && new URL(r).host !== location.host) a.referrer = cut(r, 2048);
    a.landing_url = cut(location.href, 2048);
    ls.svc_attr = JSON.stringify({ a, t: now() });
  };

  let queue = [], timer;
  const send = (events, beacon) => {
    const body = JSON.stringify({ key, events });
    // A string body goes as text/plain, which needs no CORS preflight.
    if (!(beacon && navigator.sendBeacon(url, body)))
      fetch(url, { method: 'POST', keepalive: true, body }).catch(() => {});
  };
  const flush = beacon => {
    clearTimeout(timer);
    timer = 0;
    while (queue.length) send(queue.splice(0, 25), beacon);
  };

  const push = (stage, p, props) => {
    p = Object.assign({}, p);
    if (!key || !STAGES.includes(stage) || p.value != null && !Number.isInteger(p.value))
      return console.warn('svc: bad event', stage, p);
    let st = session();
    if (!live(st)) land(), st = session();
    st.t = now();
    ls.svc_attr = JSON.stringify(st);
    const e = {
      dedupe_id: cut(p.dedupe_id, 128) || rand(),
      stage,
      name: cut(p.name, 120),
      occurred_at: new Date().toISOString(),
      anonymous_id: aid,
      user_id: cut(ls.svc_uid, 128),
      email: /^[^\s@]+@[^\s@]+\.[^\s@.]+$/.test(p.email) ? p.email : undefined,
      value: p.value,
      currency: cut(p.value != null && p.currency, 3),
      attribution: st.a
    };
    if (!props) {
      props = p;
      for (const k of ['name', 'value', 'currency', 'dedupe_id', 'email']) delete p[k];
    }
    const j = JSON.stringify(props);
    if (j.length > 2 && new Blob([j]).size < 8e3) e.properties = props;
    queue.push(e);
    if (queue.length > 9) flush();
    else timer = timer || setTimeout(flush, 2e3);
  };

  let path;
  const visit = () => {
    const here = location.pathname + location.search;
    if (here === path) return;
    if (path) land(); // new tags, no new referrer
    path = here;
    push('visit', { path: location.pathname });
  };

  const svc = w.svc = {
    track: push,
    identify(id, traits) {
      if (!id) return;
      const t = Object.assign({}, traits), email = t.email;
      delete t.email;
      ls.svc_uid = id;
      push('engaged', { name: 'identify', email }, t);
    }
  };

  for (const f of ['pushState', 'replaceState']) {
    const orig = history[f];
    history[f] = (...a) => (orig.apply(history, a), visit());
  }
  addEventListener('popstate', visit);
  d.addEventListener('visibilitychange', () => d.hidden && flush(1));
  addEventListener('pagehide', () => flush(1));

  land(1);
  visit();
  // Calls queued before load: svc.push(['track', ...])
  if (Array.isArray(old)) for (const [f, ...a] of old) svc[f] && svc[f](...a);
})(window, document);
