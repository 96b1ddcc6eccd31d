//! A small W3C WebDriver client over HTTP, enough to drive headless Chromium through Debian's
//! chromedriver: sessions, navigation, CSS lookups, clicks, scripts and screenshots.
use serde_json::{Value, json};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// The chromedriver and chromium binaries: from the environment, else Debian's paths. A
/// missing binary fails the test loudly (scripts/test installs both).
fn binary(var: &str, default: &str) -> PathBuf {
    let path = std::env::var_os(var)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(default));
    assert!(
        path.exists(),
        "{} not found: run scripts/test (it installs chromium and chromium-driver) or \
         `apt-get install chromium chromium-driver`, or set {var}",
        path.display()
    );
    path
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free loopback port")
        .port()
}

/// A child process and its scratch directory: dropped, the process is killed and the
/// directory removed, so a failing test leaves no browser or server behind.
pub struct Spawned {
    pub child: Child,
    pub dir: PathBuf,
}

impl Drop for Spawned {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A running chromedriver (its directory holds the browsers' profiles); dropped, it is killed.
pub struct Driver {
    process: Spawned,
    url: String,
    http: reqwest::Client,
}

impl Driver {
    pub async fn start() -> Driver {
        let exe = binary("PYRAMIDION_CHROMEDRIVER", "/usr/bin/chromedriver");
        let port = free_port();
        let process = Command::new(exe)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let url = format!("http://127.0.0.1:{port}");
        let http = reqwest::Client::new();
        let start = Instant::now();
        loop {
            let ready = http
                .get(format!("{url}/status"))
                .send()
                .await
                .ok()
                .filter(|r| r.status().is_success());
            if ready.is_some() {
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "chromedriver did not start"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let profiles = std::env::temp_dir().join(format!("pyramidion-chrome-{port}"));
        Driver {
            process: Spawned {
                child: process,
                dir: profiles,
            },
            url,
            http,
        }
    }

    /// A new browser (its own profile, so its own cookies) with a window of `width`×`height`.
    pub async fn session(&self, width: u32, height: u32) -> Session {
        let chromium = binary("PYRAMIDION_CHROMIUM", "/usr/bin/chromium");
        static SESSIONS: AtomicUsize = AtomicUsize::new(0);
        let profile = self
            .process
            .dir
            .join(SESSIONS.fetch_add(1, Ordering::Relaxed).to_string());
        let args = vec![
            "--headless=new".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-dev-shm-usage".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--no-first-run".into(),
            "--disable-quic".into(),
            "--hide-scrollbars".into(),
            format!("--user-data-dir={}", profile.display()),
            format!("--window-size={width},{height}"),
        ];
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": chromium, "args": args },
        }}});
        let res: Value = self
            .http
            .post(format!("{}/session", self.url))
            .json(&caps)
            .send()
            .await
            .expect("chromedriver answers")
            .json()
            .await
            .expect("JSON from chromedriver");
        let id = res["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no browser session: {res}"))
            .to_string();
        let session = Session {
            http: self.http.clone(),
            url: format!("{}/session/{id}", self.url),
        };
        session.resize(width, height).await;
        session
    }
}

#[derive(Clone, Debug)]
pub struct Element(String);

/// One browser window.
pub struct Session {
    http: reqwest::Client,
    url: String,
}

impl Session {
    async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut req = self
            .http
            .request(method.clone(), format!("{}{path}", self.url));
        if let Some(b) = body {
            req = req.json(&b);
        }
        let res: Value = req
            .send()
            .await
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"))
            .json()
            .await
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        res["value"].clone()
    }

    async fn post(&self, path: &str, body: Value) -> Value {
        self.call(reqwest::Method::POST, path, Some(body)).await
    }

    pub async fn goto(&self, url: &str) {
        self.post("/url", json!({ "url": url })).await;
    }

    pub async fn refresh(&self) {
        self.post("/refresh", json!({})).await;
    }

    pub async fn resize(&self, width: u32, height: u32) {
        self.post("/window/rect", json!({ "width": width, "height": height }))
            .await;
    }

    /// Grants this page's origin a permission (WebDriver "Set Permission"), as a person
    /// accepting the browser's prompt would: e.g. `notifications`.
    pub async fn grant_permission(&self, name: &str) {
        let v = self
            .post(
                "/permissions",
                json!({ "descriptor": { "name": name }, "state": "granted" }),
            )
            .await;
        if v.get("error").is_some() {
            panic!("cannot grant {name}: {v}");
        }
    }

    /// Runs `script` (a function body; `arguments` holds `args`) and returns its value.
    pub async fn js(&self, script: &str, args: Value) -> Value {
        let v = self
            .post("/execute/sync", json!({ "script": script, "args": args }))
            .await;
        if v.get("error").is_some() {
            panic!("script failed: {v}\n{script}");
        }
        v
    }

    pub async fn find_all(&self, css: &str) -> Vec<Element> {
        let v = self
            .post(
                "/elements",
                json!({ "using": "css selector", "value": css }),
            )
            .await;
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|e| e[ELEMENT_KEY].as_str().map(|s| Element(s.into())))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// What the page says (its last message, then its text), for failure reports.
    async fn page_text(&self) -> Value {
        self.js(
            "return (document.getElementById('app')?.dataset.lastToast ?? '') + '\\n' + document.body.innerText.slice(0, 2000);",
            json!([]),
        )
        .await
    }

    /// Waits up to `secs` for an element matching `css`.
    pub async fn wait_for(&self, css: &str, secs: u64) -> Element {
        let start = Instant::now();
        loop {
            if let Some(e) = self.find_all(css).await.into_iter().next() {
                return e;
            }
            if start.elapsed() > Duration::from_secs(secs) {
                let body = self.page_text().await;
                panic!("no element '{css}' after {secs} s; the page says:\n{body}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits until `script` returns a truthy value.
    pub async fn wait_until(&self, what: &str, script: &str, args: Value, secs: u64) -> Value {
        let start = Instant::now();
        loop {
            let v = self.js(script, args.clone()).await;
            if !(v.is_null() || v == json!(false) || v == json!("") || v == json!(0)) {
                return v;
            }
            if start.elapsed() > Duration::from_secs(secs) {
                let body = self.page_text().await;
                panic!("timed out waiting for {what}; the page says:\n{body}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Clicks an element found earlier; false when the page has redrawn it meanwhile.
    pub async fn try_click(&self, e: &Element) -> bool {
        let v = self
            .post(&format!("/element/{}/click", e.0), json!({}))
            .await;
        match v.get("error").and_then(Value::as_str) {
            None => true,
            Some("stale element reference") => false,
            Some(_) => panic!("click failed: {v}"),
        }
    }

    /// Waits for the `n`-th element (wrapping) matching `css` and clicks it as a person would
    /// (the browser checks it is visible and not covered), looking again if the page redrew
    /// it in between.
    pub async fn click_nth(&self, css: &str, n: usize) {
        for _ in 0..20 {
            self.wait_for(css, 15).await;
            let all = self.find_all(css).await;
            if let Some(e) = all.get(n % all.len().max(1))
                && self.try_click(e).await
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("'{css}' kept being redrawn: could not click it");
    }

    pub async fn click(&self, css: &str) {
        self.click_nth(css, 0).await;
    }

    /// The text of the first element matching `css`, exactly as the page has it.
    pub async fn text(&self, css: &str) -> String {
        self.wait_for(css, 15).await;
        self.js(
            "return document.querySelector(arguments[0])?.textContent ?? '';",
            json!([css]),
        )
        .await
        .as_str()
        .unwrap_or_default()
        .to_string()
    }

    /// Presses one key (e.g. "\u{E007}" for Enter) on the focused element.
    pub async fn press(&self, key: &str) {
        let actions = json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": [
            { "type": "keyDown", "value": key }, { "type": "keyUp", "value": key } ] }] });
        self.post("/actions", actions).await;
    }

    /// Saves a PNG of the window to `dir/name.png`.
    pub async fn screenshot(&self, dir: &Path, name: &str) -> PathBuf {
        let v = self.call(reqwest::Method::GET, "/screenshot", None).await;
        let png = decode_base64(v.as_str().expect("a base64 screenshot"));
        assert!(png.starts_with(b"\x89PNG"), "not a PNG");
        std::fs::create_dir_all(dir).expect("artifact folder");
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, png).expect("screenshot saved");
        path
    }

    pub async fn quit(self) {
        let _ = self.call(reqwest::Method::DELETE, "", None).await;
    }
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for v in text.bytes().filter_map(value) {
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}
