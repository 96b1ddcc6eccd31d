//! The browser tests' driver: Debian's chromedriver, spawned per test, and headless Chromium
//! sessions driven through the `fantoccini` WebDriver client, wrapped in the few person-like
//! steps the tests use (wait for, click as a person would, type a key, screenshot).
use fantoccini::actions::{
    InputSource, KeyAction, KeyActions, MOUSE_BUTTON_LEFT, PointerAction, TouchActions,
};
use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The chromedriver and chromium binaries: from the environment, else Debian's paths. A
/// missing binary fails the test loudly (scripts/test installs them).
fn binary(var: &str, default: &str) -> PathBuf {
    let path = std::env::var_os(var)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(default));
    assert!(
        path.exists(),
        "{} not found: run scripts/test (it installs chromium, chromium-headless-shell and \
         chromium-driver) or `apt-get install chromium chromium-headless-shell chromium-driver`, \
         or set {var}",
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

impl Drop for Driver {
    /// Kills chromedriver's process group (the browsers it started) before chromedriver.
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.process.child.id())])
            .stderr(Stdio::null())
            .status();
    }
}

/// Which Chromium a session runs.
enum Browser {
    HeadlessShell,
    Full,
}

/// A running chromedriver (its directory holds the browsers' profiles); dropped, it is killed.
pub struct Driver {
    process: Spawned,
    url: String,
}

impl Driver {
    pub async fn start() -> Driver {
        let exe = binary("PYRAMIDION_CHROMEDRIVER", "/usr/bin/chromedriver");
        let port = free_port();
        // A process group of its own, with the browsers it starts: killing chromedriver
        // alone left a browser a test had not quit running, for good (78 of them, and a
        // HAProxy, were found on this machine after a day of runs).
        let process = Command::new(exe)
            .arg(format!("--port={port}"))
            .process_group(0)
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
        }
    }

    /// A new browser (its own profile, so its own cookies) with a window of `width`×`height`:
    /// Chromium's headless shell, the same Blink that renders the pages, without the browser
    /// around them. It has no Notifications API nor push, and takes about 40% less CPU than
    /// the full browser over the suite, which is most of what the CI's two cores spend.
    pub async fn session(&self, width: u32, height: u32) -> Session {
        self.open(width, height, Browser::HeadlessShell).await
    }

    /// [`Driver::session`] in the full Chromium (headless), for a page that asks for
    /// notifications or subscribes to push.
    pub async fn session_with_notifications(&self, width: u32, height: u32) -> Session {
        self.open(width, height, Browser::Full).await
    }

    async fn open(&self, width: u32, height: u32, browser: Browser) -> Session {
        let (binary_path, name) = match browser {
            Browser::HeadlessShell => (
                binary(
                    "PYRAMIDION_HEADLESS_SHELL",
                    "/usr/lib/chromium/chromium-headless-shell",
                ),
                "chrome-headless-shell",
            ),
            Browser::Full => (binary("PYRAMIDION_CHROMIUM", "/usr/bin/chromium"), "chrome"),
        };
        static SESSIONS: AtomicUsize = AtomicUsize::new(0);
        let profile = self
            .process
            .dir
            .join(SESSIONS.fetch_add(1, Ordering::Relaxed).to_string());
        // Without the background-networking flags Chromium keeps trying to reach Google's
        // hosts, which this machine's closed network refuses. The headless shell is headless
        // by itself.
        let mut args = match browser {
            Browser::HeadlessShell => vec![],
            Browser::Full => vec!["--headless=new".to_string()],
        };
        args.extend([
            "--no-sandbox".to_string(),
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
        ]);
        let mut caps = serde_json::Map::new();
        // chromedriver drives the headless shell only when asked for it by this name.
        caps.insert("browserName".into(), json!(name));
        caps.insert(
            "goog:chromeOptions".into(),
            json!({ "binary": binary_path, "args": args }),
        );
        // Plain HTTP to the local chromedriver: no TLS stack needed.
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(caps)
            .connect(&self.url)
            .await
            .unwrap_or_else(|e| panic!("no browser session: {e}"));
        let session = Session {
            client,
            driver: self.url.clone(),
        };
        session.resize(width, height).await;
        session
    }
}

/// One browser window.
pub struct Session {
    client: Client,
    /// The chromedriver's address, for the commands fantoccini does not have.
    driver: String,
}

impl Session {
    pub async fn goto(&self, url: &str) {
        self.client
            .goto(url)
            .await
            .unwrap_or_else(|e| panic!("goto {url}: {e}"));
    }

    pub async fn refresh(&self) {
        self.client.refresh().await.expect("refresh");
    }

    pub async fn resize(&self, width: u32, height: u32) {
        self.client
            .set_window_size(width, height)
            .await
            .expect("window resized");
    }

    /// Grants this page's origin a permission (WebDriver "Set Permission", which fantoccini
    /// does not wrap), as a person accepting the browser's prompt would: e.g. `notifications`.
    pub async fn grant_permission(&self, name: &str) {
        let id = self
            .client
            .session_id()
            .await
            .expect("a session id")
            .expect("a live session");
        let answer: Value = reqwest::Client::new()
            .post(format!("{}/session/{id}/permissions", self.driver))
            .json(&json!({ "descriptor": { "name": name }, "state": "granted" }))
            .send()
            .await
            .expect("chromedriver answers")
            .json()
            .await
            .expect("JSON from chromedriver");
        assert!(
            answer["value"].get("error").is_none(),
            "cannot grant {name}: {answer}"
        );
    }

    /// Cuts this page's network (Chromium's offline emulation, through chromedriver's Chrome
    /// DevTools Protocol passthrough), or gives it back. A service worker's own fetches are
    /// not the page's: a test that means "no connection" stops the server too.
    pub async fn set_offline(&self, offline: bool) {
        let id = self
            .client
            .session_id()
            .await
            .expect("a session id")
            .expect("a live session");
        let http = reqwest::Client::new();
        for (cmd, params) in [
            ("Network.enable", json!({})),
            (
                "Network.emulateNetworkConditions",
                json!({ "offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1 }),
            ),
        ] {
            let answer: Value = http
                .post(format!("{}/session/{id}/goog/cdp/execute", self.driver))
                .json(&json!({ "cmd": cmd, "params": params }))
                .send()
                .await
                .expect("chromedriver answers")
                .json()
                .await
                .expect("JSON from chromedriver");
            assert!(
                answer["value"].get("error").is_none(),
                "{cmd} refused: {answer}"
            );
        }
    }

    /// Runs `script` (a function body; `arguments` holds `args`, a JSON array) and returns its
    /// value.
    pub async fn js(&self, script: &str, args: Value) -> Value {
        let args = match args {
            Value::Array(a) => a,
            other => vec![other],
        };
        self.client
            .execute(script, args)
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    pub async fn find_all(&self, css: &str) -> Vec<Element> {
        self.client
            .find_all(Locator::Css(css))
            .await
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
        match e.click().await {
            Ok(()) => true,
            Err(err) if err.is_stale_element_reference() => false,
            // In view but under the sticky clock bar and prompt (WebDriver does not scroll an
            // element whose centre is inside the window): scroll it to the middle, as a person
            // would, and click once more.
            Err(err) if err.to_string().contains("element click intercepted") => {
                let element = serde_json::to_value(e).expect("an element serialises");
                self.js(
                    "arguments[0].scrollIntoView({ block: 'center' }); return true;",
                    json!([element]),
                )
                .await;
                match e.click().await {
                    Ok(()) => true,
                    Err(err) if err.is_stale_element_reference() => false,
                    Err(err) => panic!("click failed: {err}"),
                }
            }
            Err(err) => panic!("click failed: {err}"),
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
        let mut chars = key.chars();
        let (Some(value), None) = (chars.next(), chars.next()) else {
            panic!("press takes one key, not '{key}'");
        };
        let keys = KeyActions::new("keyboard".into())
            .then(KeyAction::Down { value })
            .then(KeyAction::Up { value });
        self.client
            .perform_actions(keys)
            .await
            .expect("key pressed");
    }

    /// Taps the first element matching `css` with a finger (a touch pointer), as on a phone.
    pub async fn tap(&self, css: &str) {
        let element = self.wait_for(css, 15).await;
        let finger = TouchActions::new("finger".into())
            .then(PointerAction::MoveToElement {
                element,
                duration: None,
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        self.client.perform_actions(finger).await.expect("tapped");
    }

    /// Saves a PNG of the window to `dir/name.png`.
    pub async fn screenshot(&self, dir: &Path, name: &str) -> PathBuf {
        let png = self.client.screenshot().await.expect("a screenshot");
        assert!(png.starts_with(b"\x89PNG"), "not a PNG");
        std::fs::create_dir_all(dir).expect("artifact folder");
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, png).expect("screenshot saved");
        path
    }

    pub async fn quit(self) {
        let _ = self.client.close().await;
    }
}
