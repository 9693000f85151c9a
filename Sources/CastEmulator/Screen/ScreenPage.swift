/// The page of a virtual device's TV screen (`GET /` on the setup port): one self-contained
/// HTML document, its style and script inline, that follows `/screen/events` and draws what a
/// TV would show.
///
/// Every string from the device or a sender reaches the document through `textContent` or
/// an attribute set from script, never as markup; the only URLs it loads are the media's
/// own (`contentUrl` into `<video>`/`<audio>`, the first metadata image into `<img>`), and
/// only `http(s)` ones. The response's Content-Security-Policy forbids every other load.
enum ScreenPage {
    /// The Content-Security-Policy of the page: inline style and script only, media and
    /// images from `http(s)`, events from the device itself.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src http: https:; "
        + "media-src http: https:; connect-src 'self'; base-uri 'none'; form-action 'none'"

    /// The document.
    static let html = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Cast screen</title>
        <style>
        * { box-sizing: border-box; }
        html, body { margin: 0; height: 100%; background: #000; color: #fff; overflow: hidden;
          font-family: "Roboto", "Noto Sans", "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; }
        #tv { position: absolute; inset: 0; margin: auto; width: 100vw; height: 56.25vw; max-height: 100vh;
          max-width: 177.78vh; overflow: hidden; background: #05070c; }
        .layer { position: absolute; inset: 0; transition: opacity .6s ease; }
        .hidden { opacity: 0; pointer-events: none; }
        .gone { display: none !important; }
        #backdrop { background: radial-gradient(ellipse at 20% 30%, #1d3b6e 0%, transparent 55%),
          radial-gradient(ellipse at 80% 75%, #4a1f5c 0%, transparent 50%),
          linear-gradient(160deg, #0b1426 0%, #101b33 45%, #1a0f24 100%);
          background-size: 140% 140%; animation: drift 40s ease-in-out infinite alternate; }
        @keyframes drift { from { background-position: 0% 0%; } to { background-position: 100% 100%; } }
        #idle { display: flex; flex-direction: column; justify-content: flex-end; padding: 6% 7%; }
        #clock { font-size: 9vmin; font-weight: 300; letter-spacing: .02em; text-shadow: 0 .3vmin 2vmin rgba(0,0,0,.5); }
        #date { font-size: 2.6vmin; opacity: .75; margin-top: .6vmin; }
        #device-row { margin-top: 3vmin; font-size: 2.4vmin; opacity: .85; display: flex; align-items: center; gap: 1.2vmin; }
        #cast-icon { width: 3vmin; height: 2.3vmin; border: .35vmin solid #fff; border-radius: .4vmin; position: relative; opacity: .9; }
        #cast-icon::after { content: ""; position: absolute; left: -.35vmin; bottom: -.35vmin; width: 1vmin; height: 1vmin;
          background: #fff; border-top-right-radius: 1vmin; }
        #idle-hint { position: absolute; right: 7%; bottom: 6%; font-size: 2vmin; opacity: .6; text-align: right; }
        #player { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: contain; background: #000; }
        #poster { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center;
          background: linear-gradient(180deg, #111827, #030712); }
        #poster-art { max-width: 38%; max-height: 58%; border-radius: 1vmin; box-shadow: 0 2vmin 6vmin rgba(0,0,0,.7); }
        #poster-glyph { width: 22vmin; height: 22vmin; border-radius: 50%; background: rgba(255,255,255,.06);
          display: flex; align-items: center; justify-content: center; font-size: 9vmin; color: rgba(255,255,255,.35); }
        #top { position: absolute; left: 0; right: 0; top: 0; padding: 3.5vmin 4.5vmin 8vmin;
          background: linear-gradient(180deg, rgba(0,0,0,.65), transparent); display: flex; justify-content: space-between;
          align-items: flex-start; }
        #app-name { font-size: 2.6vmin; font-weight: 500; }
        #app-status { font-size: 2vmin; opacity: .7; margin-top: .4vmin; }
        #top-clock { font-size: 2.6vmin; opacity: .85; }
        #bottom { position: absolute; left: 0; right: 0; bottom: 0; padding: 12vmin 4.5vmin 4vmin;
          background: linear-gradient(0deg, rgba(0,0,0,.85) 0%, rgba(0,0,0,.55) 55%, transparent 100%);
          display: flex; gap: 3vmin; align-items: flex-end; }
        #art { width: 16vmin; height: 16vmin; object-fit: cover; border-radius: .8vmin; background: #222;
          box-shadow: 0 1vmin 3vmin rgba(0,0,0,.6); flex: none; }
        #meta { flex: 1; min-width: 0; }
        #title { font-size: 4.2vmin; font-weight: 500; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        #subtitle { font-size: 2.4vmin; opacity: .75; margin-top: .5vmin; white-space: nowrap; overflow: hidden;
          text-overflow: ellipsis; }
        #bar-row { display: flex; align-items: center; gap: 2vmin; margin-top: 2.4vmin; font-size: 2vmin;
          font-variant-numeric: tabular-nums; }
        #state-icon { width: 2.6vmin; height: 2.6vmin; position: relative; flex: none; }
        #state-icon.playing::before { content: ""; position: absolute; left: .3vmin; top: 0; border-style: solid;
          border-width: 1.3vmin 0 1.3vmin 2.2vmin; border-color: transparent transparent transparent #fff; }
        #state-icon.paused::before, #state-icon.paused::after { content: ""; position: absolute; top: 0; width: .8vmin;
          height: 2.6vmin; background: #fff; border-radius: .15vmin; }
        #state-icon.paused::before { left: .2vmin; } #state-icon.paused::after { right: .2vmin; }
        #state-icon.buffering { border: .35vmin solid rgba(255,255,255,.25); border-top-color: #fff; border-radius: 50%;
          animation: spin 1s linear infinite; }
        @keyframes spin { to { transform: rotate(360deg); } }
        #progress { flex: 1; height: .7vmin; background: rgba(255,255,255,.25); border-radius: .35vmin; overflow: hidden; }
        #progress-fill { height: 100%; width: 0%; background: #e8eaed; border-radius: .35vmin; }
        #live { background: #d93025; color: #fff; font-weight: 700; font-size: 1.7vmin; padding: .3vmin 1vmin;
          border-radius: .4vmin; letter-spacing: .08em; }
        #state-text { font-size: 1.8vmin; opacity: .7; text-transform: uppercase; letter-spacing: .08em; margin-top: 1.2vmin; }
        #captions { position: absolute; left: 10%; right: 10%; bottom: 30%; text-align: center; }
        #captions span { background: rgba(0,0,0,.75); font-size: 3.6vmin; line-height: 1.35; padding: .2vmin 1.2vmin;
          white-space: pre-line; box-decoration-break: clone; -webkit-box-decoration-break: clone; }
        #ad { position: absolute; right: 4.5vmin; top: 4vmin; display: flex; flex-direction: column; align-items: flex-end;
          gap: 1vmin; }
        #ad-badge { background: #fbbc04; color: #202124; font-weight: 700; font-size: 1.8vmin; padding: .4vmin 1.2vmin;
          border-radius: .4vmin; }
        #ad-title { font-size: 2vmin; opacity: .85; }
        #ad-skip { position: absolute; right: 4.5vmin; bottom: 30%; background: rgba(0,0,0,.7); border: .2vmin solid
          rgba(255,255,255,.6); padding: 1.2vmin 2.4vmin; font-size: 2.2vmin; }
        #ad-skip.ready { border-color: #fff; background: rgba(255,255,255,.15); }
        #volume { position: absolute; right: 4vmin; top: 50%; transform: translateY(-50%); width: 7vmin; padding: 2vmin 0;
          background: rgba(32,33,36,.85); border-radius: 3.5vmin; display: flex; flex-direction: column; align-items: center;
          gap: 1.4vmin; }
        #volume-track { width: 1vmin; height: 24vmin; background: rgba(255,255,255,.25); border-radius: .5vmin;
          position: relative; overflow: hidden; }
        #volume-fill { position: absolute; left: 0; right: 0; bottom: 0; background: #8ab4f8; }
        #volume-text { font-size: 2vmin; font-variant-numeric: tabular-nums; }
        #error { display: flex; align-items: center; justify-content: center; background: rgba(5,7,12,.92); }
        #error-card { max-width: 60%; text-align: center; }
        #error-glyph { width: 9vmin; height: 9vmin; margin: 0 auto 2.5vmin; border-radius: 50%; border: .5vmin solid #f28b82;
          color: #f28b82; font-size: 6vmin; line-height: 8vmin; font-weight: 700; }
        #error-title { font-size: 3.6vmin; font-weight: 500; }
        #error-name { font-size: 2.2vmin; color: #f28b82; margin-top: 1.4vmin; font-family: "DejaVu Sans Mono", monospace; }
        #error-reason { font-size: 1.9vmin; opacity: .65; margin-top: 1vmin; overflow-wrap: anywhere; }
        #error-media { font-size: 2.2vmin; opacity: .8; margin-top: 2vmin; }
        #link { position: absolute; left: 1.5vmin; bottom: 1.2vmin; width: 1.2vmin; height: 1.2vmin; border-radius: 50%;
          background: #81c995; opacity: .7; }
        #link.down { background: #f28b82; }
        </style>
        </head>
        <body>
        <div id="tv" data-view="idle">
          <div id="backdrop" class="layer"></div>
          <div id="idle" class="layer">
            <div id="clock">--:--</div>
            <div id="date"></div>
            <div id="device-row"><div id="cast-icon"></div><span id="device">Cast device</span></div>
            <div id="idle-hint"><div id="idle-app"></div><div id="idle-status"></div></div>
          </div>
          <div id="stage" class="layer hidden">
            <div id="poster"><img id="poster-art" class="gone" alt=""><div id="poster-glyph">&#9835;</div></div>
            <video id="player" class="gone" playsinline preload="auto"></video>
            <div id="captions" class="gone"><span id="captions-text"></span></div>
            <div id="top"><div><div id="app-name"></div><div id="app-status"></div></div><div id="top-clock"></div></div>
            <div id="ad" class="gone"><div id="ad-badge">Ad</div><div id="ad-title"></div></div>
            <div id="ad-skip" class="gone"></div>
            <div id="bottom">
              <img id="art" class="gone" alt="">
              <div id="meta">
                <div id="title"></div>
                <div id="subtitle"></div>
                <div id="bar-row">
                  <div id="state-icon"></div>
                  <span id="elapsed">0:00</span>
                  <div id="progress"><div id="progress-fill"></div></div>
                  <span id="duration"></span>
                  <span id="live" class="gone">LIVE</span>
                </div>
                <div id="state-text"></div>
              </div>
            </div>
          </div>
          <div id="error" class="layer hidden">
            <div id="error-card">
              <div id="error-glyph">!</div>
              <div id="error-title">This media can&#8217;t be played</div>
              <div id="error-name"></div>
              <div id="error-reason"></div>
              <div id="error-media"></div>
            </div>
          </div>
          <div id="volume" class="hidden"><div id="volume-track"><div id="volume-fill"></div></div><div id="volume-text"></div></div>
          <div id="link" class="down"></div>
        </div>
        <script>
        "use strict";
        (function () {
          var $ = function (id) { return document.getElementById(id); };
          var tv = $("tv"), video = $("player");
          var state = null, receivedAt = 0, loadedUrl = null, playable = false, volumeTimer = null, lastVolume = null;
          var screen = { revision: 0, events: 0, position: function () { return position(); } };
          window.castScreen = screen;

          function setText(id, text) { var node = $(id); if (node.textContent !== text) node.textContent = text; }
          function show(id, visible) { $(id).classList.toggle("gone", !visible); }
          function isWeb(url) { return typeof url === "string" && /^https?:\/\//i.test(url); }
          function clockText(date) { return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }); }
          function time(seconds) {
            if (!isFinite(seconds) || seconds < 0) seconds = 0;
            var s = Math.floor(seconds), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
            var pad = function (n) { return (n < 10 ? "0" : "") + n; };
            return h > 0 ? h + ":" + pad(m) + ":" + pad(r) : m + ":" + pad(r);
          }
          // The device's position now: the last one it sent, moved on at its rate while playing.
          function position() {
            var media = state && state.media;
            if (!media) return 0;
            var p = media.position || 0;
            if (media.state === "PLAYING" && !media.ad) p += (performance.now() - receivedAt) / 1000 * (media.rate || 1);
            if (media.duration != null) p = Math.min(p, media.duration);
            if (media.seekable && media.live) p = Math.max(p, 0);
            return p;
          }
          function adTime() {
            var ad = state && state.media && state.media.ad;
            if (!ad) return 0;
            var t = ad.clipTime || 0;
            if (state.media.state === "PLAYING") t += (performance.now() - receivedAt) / 1000;
            return ad.duration != null ? Math.min(t, ad.duration) : t;
          }
          function view() {
            var media = state && state.media;
            if (media && media.error) return "error";
            if (media && media.state !== "IDLE") return "media";
            if (media && media.extendedState === "LOADING") return "media";
            return "idle";
          }
          function setImage(id, url) {
            var node = $(id);
            if (isWeb(url)) {
              if (node.getAttribute("src") !== url) node.setAttribute("src", url);
              show(id, true);
            } else {
              node.removeAttribute("src");
              show(id, false);
            }
          }

          function render() {
            var current = view();
            tv.setAttribute("data-view", current);
            $("idle").classList.toggle("hidden", current !== "idle");
            $("stage").classList.toggle("hidden", current !== "media");
            $("error").classList.toggle("hidden", current !== "error");
            setText("device", state.device || "Cast device");
            var app = state.app;
            setText("idle-app", app && !app.idleScreen ? app.name : "");
            setText("idle-status", app && !app.idleScreen ? app.status : "Ready to cast");
            setText("app-name", app ? app.name : "");
            setText("app-status", app ? app.status : "");
            var media = state.media;
            if (media) {
              setText("title", media.title || "Untitled");
              setText("subtitle", media.subtitle || "");
              setImage("art", media.image);
              setImage("poster-art", media.image);
              show("poster-glyph", !isWeb(media.image));
              $("poster-glyph").textContent = media.category === "AUDIO" ? "\u266B" : "\u25B6";
              var label = media.extendedState === "LOADING" ? "Loading" : media.state === "BUFFERING" ? "Buffering"
                : media.state === "PAUSED" ? "Paused" : media.state === "PLAYING" ? "Playing" : "Stopped";
              setText("state-text", label);
              tv.setAttribute("data-state", media.extendedState || media.state);
              var icon = $("state-icon");
              icon.className = media.state === "PLAYING" ? "playing" : media.state === "PAUSED" ? "paused" : "buffering";
              show("live", !!media.live);
              show("duration", !media.live && media.duration != null);
              if (media.error) {
                setText("error-name", media.error.name + " (" + media.error.code + ")");
                setText("error-reason", media.error.reason || "");
                setText("error-media", media.title || media.contentUrl || "");
              }
              renderCaptions();
            } else {
              tv.removeAttribute("data-state");
            }
            syncMedia();
            tick();
          }

          function renderCaptions() {
            var captions = state.media && state.media.captions;
            var text = "";
            if (captions && captions.cues) {
              var p = position();
              for (var i = 0; i < captions.cues.length; i++) {
                var cue = captions.cues[i];
                if (p >= cue[0] && p < cue[1]) { text = text ? text + "\n" + cue[2] : cue[2]; }
              }
            }
            setText("captions-text", text);
            show("captions", text !== "");
          }

          function renderAd() {
            var ad = state && state.media && state.media.ad;
            show("ad", !!ad);
            show("ad-skip", !!ad);
            if (!ad) return;
            var t = adTime();
            var left = ad.duration != null ? Math.max(0, Math.ceil(ad.duration - t)) : null;
            var count = ad.clips ? "Ad " + ad.clip + " of " + ad.clips : "Ad";
            setText("ad-badge", count + (left != null ? " \u00B7 " + time(left) : ""));
            setText("ad-title", ad.title || "");
            var skip = $("ad-skip");
            if (ad.whenSkippable == null || ad.whenSkippable < 0) {
              setText("ad-skip", "Ad can\u2019t be skipped");
              skip.classList.remove("ready");
            } else if (t >= ad.whenSkippable) {
              setText("ad-skip", "Skip ad \u25B8");
              skip.classList.add("ready");
            } else {
              setText("ad-skip", "Skip in " + Math.ceil(ad.whenSkippable - t));
              skip.classList.remove("ready");
            }
          }

          function renderVolume() {
            var volume = state.volume;
            if (!volume) return;
            var key = volume.level + "/" + volume.muted;
            if (lastVolume !== null && key !== lastVolume) {
              var level = Math.round((volume.level || 0) * 100);
              $("volume-fill").style.height = (volume.muted ? 0 : level) + "%";
              setText("volume-text", volume.muted ? "Muted" : String(level));
              $("volume").classList.remove("hidden");
              clearTimeout(volumeTimer);
              volumeTimer = setTimeout(function () { $("volume").classList.add("hidden"); }, 2500);
            }
            lastVolume = key;
            video.volume = Math.max(0, Math.min(1, volume.level == null ? 1 : volume.level));
          }

          // Plays the media in the page when the browser can, held to the device's clock.
          function syncMedia() {
            var media = state && state.media;
            var wanted = media && !media.error && media.state !== "IDLE" && media.category !== "IMAGE" && isWeb(media.contentUrl)
              ? media.contentUrl : null;
            if (wanted !== loadedUrl) {
              loadedUrl = wanted;
              playable = false;
              if (wanted && (!media.contentType || video.canPlayType(media.contentType) !== "" ||
                  !/mpegurl|dash/i.test(media.contentType))) {
                video.src = wanted;
                video.load();
              } else {
                video.removeAttribute("src");
                video.load();
              }
              show("player", false);
            }
            if (!loadedUrl || !playable) return;
            show("player", media.category !== "AUDIO");
            var target = position();
            var playing = media.state === "PLAYING" && !media.ad;
            if (Math.abs(video.playbackRate - (media.rate || 1)) > 0.001) video.playbackRate = media.rate || 1;
            if (Math.abs(video.currentTime - target) > 0.5 && video.readyState > 0) video.currentTime = target;
            if (playing && video.paused) {
              video.play().catch(function () { video.muted = true; video.play().catch(function () {}); });
            } else if (!playing && !video.paused) {
              video.pause();
            }
          }
          video.addEventListener("loadedmetadata", function () { playable = true; syncMedia(); });
          video.addEventListener("error", function () { if (video.getAttribute("src")) { playable = false; show("player", false); } });

          function tick() {
            var now = new Date();
            setText("clock", clockText(now));
            setText("top-clock", clockText(now));
            setText("date", now.toLocaleDateString([], { weekday: "long", month: "long", day: "numeric" }));
            var media = state && state.media;
            if (!media) return;
            var p = position();
            setText("elapsed", media.live && !media.seekable ? "" : time(p));
            if (media.duration != null && media.duration > 0 && !media.live) {
              setText("duration", time(media.duration));
              $("progress-fill").style.width = Math.min(100, p / media.duration * 100).toFixed(2) + "%";
            } else if (media.live && media.seekable && media.seekable.end > media.seekable.start) {
              var span = media.seekable.end - media.seekable.start;
              $("progress-fill").style.width = Math.max(0, Math.min(100, (p - media.seekable.start) / span * 100)).toFixed(2) + "%";
            } else {
              $("progress-fill").style.width = media.live ? "100%" : "0%";
            }
            renderAd();
            renderCaptions();
          }

          function connect() {
            var source = new EventSource("/screen/events");
            source.addEventListener("open", function () { $("link").classList.remove("down"); });
            source.addEventListener("error", function () { $("link").classList.add("down"); });
            source.addEventListener("state", function (event) {
              var next;
              try { next = JSON.parse(event.data); } catch (e) { return; }
              state = next;
              receivedAt = performance.now();
              screen.revision = next.revision;
              screen.events += 1;
              renderVolume();
              render();
            });
          }
          setInterval(function () { if (state) { tick(); syncMedia(); } else { setText("clock", clockText(new Date())); } }, 250);
          setText("clock", clockText(new Date()));
          connect();
        })();
        </script>
        </body>
        </html>
        """#
}
