//! The web console in a real browser (issue 31 part 4): headless Chromium, driven over WebDriver
//! (`chromedriver`, through `fantoccini`), loads the page from a seeded server that has an admin
//! token, is given the token, lists the tables, pages a table's items, runs a query, edits an item
//! (checked through the API), is refused an overwrite, reads the stream, arms and disarms a fault
//! rule, advances the clock, runs PartiQL, and shows a hostile attribute value as text; then, against a
//! server that verifies signatures, is refused unsigned and signs its requests once given a key.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`/usr/bin/chromium`, `/usr/bin/chromedriver`;
//! `DYNOMODEL_CHROMIUM` and `DYNOMODEL_CHROMEDRIVER` name others). Where they are missing the test
//! passes as skipped with one line on standard error, unless `DYNOMODEL_REQUIRE_CHROMIUM=1`
//! (`scripts/test`, hence CI, which installs them) makes that a failure.
//! `DYNOMODEL_CONSOLE_SCREENSHOTS=DIR` saves the main views as PNG there (the guide's
//! `docs/guide/img/console-*.png` come from it).
//!
//! Why WebDriver from Rust rather than Node's playwright-core: the test is one more `cargo test`,
//! with the server in-process (its backend checked directly), and CI needs only the two Debian
//! packages: no npm install, no browser download.

use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use dynomodel_mem::ManualClock;
use fantoccini::{Client, ClientBuilder, Locator};
use futures::FutureExt as _;

use super::*;

/// The admin token of the server the page is tested against.
const TOKEN: &str = "console-test-token";

/// An attribute value that would run script if the page wrote it as markup.
const HOSTILE: &str = "<img src=x onerror=\"window.__pwned=1\"><script>window.__pwned=2</script>";

/// How long a step may take before the test fails (the page answers in milliseconds).
const STEP: Duration = Duration::from_secs(15);

/// Chromium's flags: headless, and nothing that reaches for the network (closed here: without them
/// it stalls on lookups).
const CHROMIUM_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1400,900",
];

fn tool(variable: &str, default: &str) -> PathBuf {
    std::env::var_os(variable).map_or_else(|| PathBuf::from(default), PathBuf::from)
}

/// The browser and its driver, or `None` (after saying so, or failing when they are required).
fn browser() -> Option<(PathBuf, PathBuf)> {
    let chromium = tool("DYNOMODEL_CHROMIUM", "/usr/bin/chromium");
    let driver = tool("DYNOMODEL_CHROMEDRIVER", "/usr/bin/chromedriver");
    if chromium.is_file() && driver.is_file() {
        return Some((chromium, driver));
    }
    let message = format!(
        "console browser test skipped: {} or {} is missing (apt-get install chromium chromium-driver)",
        chromium.display(),
        driver.display()
    );
    if std::env::var("DYNOMODEL_REQUIRE_CHROMIUM").is_ok_and(|v| v == "1") {
        panic!("{message}; DYNOMODEL_REQUIRE_CHROMIUM=1 requires it");
    }
    eprintln!("{message}");
    None
}

/// A chromedriver process, killed when dropped, and the browser's profile directory, removed.
struct Driver {
    child: Child,
    url: String,
    profile: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

async fn start_driver(driver: &PathBuf) -> Driver {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let profile =
        std::env::temp_dir().join(format!("dynomodel-console-{}-{port}", std::process::id()));
    let driver = Driver {
        child,
        url: format!("http://127.0.0.1:{port}"),
        profile,
    };
    let deadline = Instant::now() + STEP;
    while TcpStream::connect(("127.0.0.1", port)).await.is_err() {
        assert!(
            Instant::now() < deadline,
            "chromedriver did not listen on port {port}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    driver
}

async fn connect(driver: &Driver, chromium: &PathBuf) -> Client {
    let mut args: Vec<String> = CHROMIUM_FLAGS.iter().map(|f| (*f).to_owned()).collect();
    args.push(format!("--user-data-dir={}", driver.profile.display()));
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".into(),
        json!({ "binary": chromium, "args": args }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(capabilities)
        .connect(&driver.url)
        .await
        .unwrap()
}

/// The seeded server: `orders` (partition and sort key, a GSI, a stream) and `users`, on a manual
/// clock, with an admin token.
async fn seeded() -> (ServerHandle, MemBackend) {
    let clock = ManualClock::default();
    let backend = MemBackend::builder().clock(clock.clone()).build();
    let server = Server::builder()
        .admin_token(TOKEN)
        .bind_mem("127.0.0.1:0", backend.clone(), Some(clock))
        .await
        .unwrap();
    let addr = server.local_addr();
    let created = call(
        addr,
        "CreateTable",
        json!({
            "TableName": "orders",
            "AttributeDefinitions": [
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "sk", "AttributeType": "S"},
                {"AttributeName": "status", "AttributeType": "S"}
            ],
            "KeySchema": [
                {"AttributeName": "pk", "KeyType": "HASH"},
                {"AttributeName": "sk", "KeyType": "RANGE"}
            ],
            "GlobalSecondaryIndexes": [{
                "IndexName": "by_status",
                "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
                "Projection": {"ProjectionType": "ALL"}
            }],
            "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"},
            "BillingMode": "PAY_PER_REQUEST"
        }),
    )
    .await;
    assert_eq!(created.status, 200, "{:?}", created.json());
    for (customer, order, status, total) in [
        ("customer#1", "order#1", "shipped", "25.50"),
        ("customer#1", "order#2", "pending", "12"),
        ("customer#1", "order#3", "pending", "99.90"),
        ("customer#2", "order#4", "shipped", "7"),
        ("customer#2", "order#5", "cancelled", "310"),
    ] {
        put(addr, "orders", json!({
            "pk": {"S": customer}, "sk": {"S": order}, "status": {"S": status},
            "total": {"N": total}, "lines": {"L": [{"M": {"sku": {"S": "A-1"}, "qty": {"N": "2"}}}]}
        }))
        .await;
    }
    put(
        addr,
        "orders",
        json!({
            "pk": {"S": "customer#3"}, "sk": {"S": "order#6"}, "status": {"S": "pending"},
            "note": {"S": HOSTILE}, "tags": {"SS": ["gift", "urgent"]}
        }),
    )
    .await;
    create_table(addr, "users").await;
    for (id, name) in [("u1", "Ada"), ("u2", "Grace")] {
        put(addr, "users", json!({"pk": {"S": id}, "name": {"S": name}})).await;
    }
    (server, backend)
}

async fn put(addr: SocketAddr, table: &str, item: Value) {
    let reply = call(addr, "PutItem", json!({"TableName": table, "Item": item})).await;
    assert_eq!(reply.status, 200, "{:?}", reply.json());
}

async fn get_item(addr: SocketAddr, customer: &str, order: &str) -> Value {
    let key = json!({"pk": {"S": customer}, "sk": {"S": order}});
    let reply = call(addr, "GetItem", json!({"TableName": "orders", "Key": key})).await;
    assert_eq!(reply.status, 200);
    reply.json()["Item"].clone()
}

/// Waits until `script` (a function body) returns true in the page.
async fn wait_until(client: &Client, what: &str, script: &str) {
    let deadline = Instant::now() + STEP;
    loop {
        if client.execute(script, vec![]).await.unwrap() == json!(true) {
            return;
        }
        if Instant::now() > deadline {
            let status = text(client, "status").await;
            panic!("timed out waiting for {what}; the console's status line: {status:?}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn text(client: &Client, id: &str) -> String {
    client
        .find(Locator::Id(id))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

async fn click(client: &Client, css: &str) {
    client
        .find(Locator::Css(css))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

async fn type_into(client: &Client, id: &str, value: &str) {
    let field = client.find(Locator::Id(id)).await.unwrap();
    field.clear().await.unwrap();
    field.send_keys(value).await.unwrap();
}

/// Saves a screenshot of the page as `DIR/name.png` when `DYNOMODEL_CONSOLE_SCREENSHOTS=DIR`.
async fn screenshot(client: &Client, name: &str) {
    if let Some(dir) = std::env::var_os("DYNOMODEL_CONSOLE_SCREENSHOTS") {
        let png = client.screenshot().await.unwrap();
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(PathBuf::from(dir).join(format!("{name}.png")), png).unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_console_in_headless_chromium() {
    let Some((chromium, driver_path)) = browser() else {
        return;
    };
    let started = Instant::now();
    let (server, _backend) = seeded().await;
    let addr = server.local_addr();
    let driver = start_driver(&driver_path).await;
    let client = connect(&driver, &chromium).await;
    let (signed, unsigned) = signing_servers().await;
    // A failed step still ends the session (chromedriver then closes the browser) before it fails.
    let scenario = async {
        drive(&client, addr).await;
        drive_signed(&client, signed.local_addr()).await;
    };
    let outcome = AssertUnwindSafe(scenario).catch_unwind().await;
    let _ = client.close().await;
    drop(driver);
    server.shutdown().await;
    signed.shutdown().await;
    unsigned.shutdown().await;
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
    eprintln!(
        "console browser test: {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

/// The scenario.
async fn drive(client: &Client, addr: SocketAddr) {
    client
        .goto(&format!("http://{addr}/_dynomodel/console"))
        .await
        .unwrap();

    // The tables are listed at once; the admin panels ask for the token.
    wait_until(
        client,
        "the table list",
        "return document.querySelectorAll('#tables tr.table-row').length === 2",
    )
    .await;
    wait_until(
        client,
        "the token request",
        "return document.getElementById('status').textContent.includes('admin token')",
    )
    .await;
    let status = text(client, "status").await;
    assert!(
        status.contains("401") || status.contains("Authorization"),
        "{status}"
    );
    type_into(client, "token", TOKEN).await;
    click(client, "#save-token").await;
    wait_until(
        client,
        "the token to be accepted",
        "return document.getElementById('status').textContent === 'Admin token accepted'",
    )
    .await;
    let clock = text(client, "clock").await;
    assert!(clock.ends_with('Z'), "{clock}");
    // The token is kept for the tab, not in the page's field.
    let kept = client
        .execute("return [sessionStorage.getItem('dynomodel-console-admin-token'), document.getElementById('token').value]", vec![])
        .await
        .unwrap();
    assert_eq!(kept, json!([TOKEN, ""]));
    // The overview of every table.
    let overview = client
        .execute("return [...document.querySelectorAll('#overview tr.overview-row')].map((r) => [...r.cells].map((c) => c.textContent))", vec![])
        .await
        .unwrap();
    assert_eq!(
        overview,
        json!([
            [
                "orders",
                "ACTIVE",
                "6",
                "pk (S, partition) + sk (S, sort)",
                "GSI by_status",
                "NEW_AND_OLD_IMAGES"
            ],
            ["users", "ACTIVE", "2", "pk (S, partition)", "", ""]
        ])
    );
    screenshot(client, "console-tables").await;

    // A table: its schema and its items, the hostile value as text.
    click(client, "tr[data-table='orders']").await;
    wait_until(
        client,
        "the items",
        "return document.querySelectorAll('#items-out tr.item').length === 6",
    )
    .await;
    let schema = text(client, "schema").await;
    assert!(
        schema.contains("pk (S, partition) + sk (S, sort)"),
        "{schema}"
    );
    assert!(
        schema.contains("GSI by_status: status (S, partition) + sk (S, sort)"),
        "{schema}"
    );
    assert!(schema.contains("Stream: NEW_AND_OLD_IMAGES"), "{schema}");
    let escaped = client
        .execute(
            "const out = document.getElementById('items-out');
             return [out.querySelectorAll('img, script').length, out.textContent.includes(arguments[0]), window.__pwned === undefined];",
            vec![json!(HOSTILE)],
        )
        .await
        .unwrap();
    assert_eq!(
        escaped,
        json!([0, true, true]),
        "the hostile value must be shown as text"
    );
    screenshot(client, "console-items").await;
    // Paging: two items a page.
    type_into(client, "page-size", "2").await;
    click(client, "#items-first").await;
    wait_until(client, "the first page", "return document.getElementById('items-info').textContent.startsWith('page 1: 2 item(s), more follow')").await;
    click(client, "#items-next").await;
    wait_until(
        client,
        "the second page",
        "return document.getElementById('items-info').textContent.startsWith('page 2: 2 item(s)')",
    )
    .await;
    // As DynamoDB JSON, still text.
    click(client, "#items-json").await;
    wait_until(
        client,
        "the JSON view",
        "return document.querySelector('#items-out pre.items-json') !== null",
    )
    .await;
    type_into(client, "page-size", "25").await;
    click(client, "#items-json").await;
    click(client, "#items-first").await;
    wait_until(
        client,
        "all items again",
        "return document.querySelectorAll('#items-out tr.item').length === 6",
    )
    .await;

    // A query, newest first.
    click(client, ".tabs button[data-view='query']").await;
    type_into(client, "q-key", "pk = :pk").await;
    type_into(client, "q-values", r#"{":pk": {"S": "customer#1"}}"#).await;
    client
        .find(Locator::Id("q-forward"))
        .await
        .unwrap()
        .select_by_value("false")
        .await
        .unwrap();
    click(client, "#q-run").await;
    wait_until(
        client,
        "the query's items",
        "return document.querySelectorAll('#query-out tr.item').length === 3",
    )
    .await;
    let order = client
        .execute("return [...document.querySelectorAll('#query-out tr.item')].map((r) => r.cells[2].textContent)", vec![])
        .await
        .unwrap();
    assert_eq!(order, json!(["order#3", "order#2", "order#1"]));
    // On the index, with a filter.
    client
        .find(Locator::Id("q-index"))
        .await
        .unwrap()
        .select_by_value("by_status")
        .await
        .unwrap();
    type_into(client, "q-key", "#s = :s").await;
    type_into(client, "q-names", r##"{"#s": "status", "#t": "total"}"##).await;
    type_into(client, "q-filter", "#t > :min").await;
    type_into(
        client,
        "q-values",
        r#"{":s": {"S": "pending"}, ":min": {"N": "50"}}"#,
    )
    .await;
    click(client, "#q-run").await;
    wait_until(
        client,
        "the index query",
        "return document.getElementById('q-info').textContent.startsWith('1 item(s) (3 read)')",
    )
    .await;
    screenshot(client, "console-query").await;
    // A malformed query says why.
    type_into(client, "q-key", "pk = ").await;
    click(client, "#q-run").await;
    wait_until(
        client,
        "the query's error",
        "return document.getElementById('status').textContent.includes('ValidationException')",
    )
    .await;

    // Edit an item; the change is read back through the API.
    click(client, ".tabs button[data-view='items']").await;
    let edit = "//div[@id='items-out']//tr[td[normalize-space()='order#2']]//button[contains(@class,'edit')]";
    client
        .find(Locator::XPath(edit))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let editor = client.find(Locator::Id("editor")).await.unwrap();
    let mut item: Value =
        serde_json::from_str(&editor.prop("value").await.unwrap().unwrap()).unwrap();
    item["status"] = json!({"S": "shipped"});
    item["note"] = json!({"S": "edited in the console"});
    editor.clear().await.unwrap();
    editor
        .send_keys(&serde_json::to_string_pretty(&item).unwrap())
        .await
        .unwrap();
    client
        .execute("document.getElementById('editor').scrollTop = 0", vec![])
        .await
        .unwrap();
    screenshot(client, "console-editor").await;
    click(client, "#editor-save").await;
    wait_until(
        client,
        "the save",
        "return document.getElementById('status').textContent.startsWith('Saved')",
    )
    .await;
    let stored = get_item(addr, "customer#1", "order#2").await;
    assert_eq!(stored["status"], json!({"S": "shipped"}));
    assert_eq!(stored["note"], json!({"S": "edited in the console"}));
    assert_eq!(stored["total"], json!({"N": "12"}));

    // A new item with the key of an existing one is refused, not written over it.
    click(client, "#new-item").await;
    type_into(
        client,
        "editor",
        r#"{"pk": {"S": "customer#1"}, "sk": {"S": "order#1"}}"#,
    )
    .await;
    click(client, "#editor-save").await;
    wait_until(
        client,
        "the refusal",
        "return document.getElementById('status').textContent.includes('exists')",
    )
    .await;
    assert_eq!(
        get_item(addr, "customer#1", "order#1").await["status"],
        json!({"S": "shipped"})
    );
    assert_eq!(
        get_item(addr, "customer#1", "order#1").await["total"],
        json!({"N": "25.5"})
    );

    // Delete needs a second click.
    click(client, ".tabs button[data-view='items']").await;
    let delete = "//div[@id='items-out']//tr[td[normalize-space()='order#5']]//button[contains(@class,'delete')]";
    client
        .find(Locator::XPath(delete))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(
        get_item(addr, "customer#2", "order#5").await["sk"],
        json!({"S": "order#5"})
    );
    client
        .find(Locator::XPath(delete))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_until(
        client,
        "the delete",
        "return document.getElementById('status').textContent.startsWith('Deleted')",
    )
    .await;
    assert_eq!(get_item(addr, "customer#2", "order#5").await, Value::Null);

    // The stream: the seed's inserts, the edit and the delete.
    click(client, ".tabs button[data-view='stream']").await;
    click(client, "#s-load").await;
    wait_until(
        client,
        "the stream records",
        "return document.querySelectorAll('#stream-out tr.record').length === 8",
    )
    .await;
    let events = client
        .execute("return [...document.querySelectorAll('#stream-out tr.record')].map((r) => r.cells[1].textContent)", vec![])
        .await
        .unwrap();
    assert_eq!(
        events,
        json!(["INSERT", "INSERT", "INSERT", "INSERT", "INSERT", "INSERT", "MODIFY", "REMOVE"])
    );
    let escaped = client
        .execute(
            "return document.querySelectorAll('#stream-out img, #stream-out script').length",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(escaped, json!(0));

    // PartiQL.
    click(client, ".tabs button[data-view='partiql']").await;
    type_into(
        client,
        "p-statement",
        "SELECT * FROM \"orders\" WHERE pk = ?",
    )
    .await;
    type_into(client, "p-params", r#"[{"S": "customer#3"}]"#).await;
    click(client, "#p-run").await;
    wait_until(
        client,
        "the statement's items",
        "return document.querySelectorAll('#partiql-out tr.item').length === 1",
    )
    .await;
    let escaped = client
        .execute("return [document.querySelectorAll('#partiql-out img').length, window.__pwned === undefined]", vec![])
        .await
        .unwrap();
    assert_eq!(escaped, json!([0, true]));

    // A fault rule, armed, listed, firing on the page's own request, disarmed.
    click(client, "#arm-rule").await;
    wait_until(client, "the armed rule", "return document.getElementById('faults').textContent.includes('#1: PutItem, the 1st, fails with ThrottlingException')").await;
    click(client, "#new-item").await;
    type_into(
        client,
        "editor",
        r#"{"pk": {"S": "customer#9"}, "sk": {"S": "order#9"}}"#,
    )
    .await;
    click(client, "#editor-save").await;
    wait_until(
        client,
        "the injected fault",
        "return document.getElementById('status').textContent.includes('ThrottlingException')",
    )
    .await;
    assert_eq!(get_item(addr, "customer#9", "order#9").await, Value::Null);
    click(client, "#clear-rules").await;
    wait_until(
        client,
        "no rule",
        "return document.getElementById('faults').textContent === 'No rule armed.'",
    )
    .await;

    // The clock.
    let before = text(client, "clock").await;
    type_into(client, "advance-seconds", "3600").await;
    click(client, "#advance").await;
    wait_until(
        client,
        "the advanced clock",
        "return document.getElementById('status').textContent.startsWith('The clock is now')",
    )
    .await;
    let after = text(client, "clock").await;
    assert_ne!(before, after);
    let parse = |t: &str| chrono::DateTime::parse_from_rfc3339(t).unwrap();
    assert_eq!((parse(&after) - parse(&before)).num_seconds(), 3600);
}

/// A server that verifies signatures (seeded through an unsigned one on the same engine, which is
/// then the second of the pair).
async fn signing_servers() -> (ServerHandle, ServerHandle) {
    let backend = MemBackend::new();
    let unsigned = Server::bind_mem("127.0.0.1:0", backend.clone(), None)
        .await
        .unwrap();
    create_table(unsigned.local_addr(), "signed").await;
    put(
        unsigned.local_addr(),
        "signed",
        json!({"pk": {"S": "k1"}, "v": {"N": "1"}}),
    )
    .await;
    let signed = Server::builder()
        .access_key("AKIDCONSOLE", "console-secret")
        .verify_signatures()
        .bind_mem("127.0.0.1:0", backend, None)
        .await
        .unwrap();
    (signed, unsigned)
}

/// The page against a server that verifies signatures: refused unsigned, and with a wrong secret,
/// served once given the key (SigV4 computed in the page with WebCrypto).
async fn drive_signed(client: &Client, addr: SocketAddr) {
    client
        .goto(&format!("http://{addr}/_dynomodel/console"))
        .await
        .unwrap();
    wait_until(
        client,
        "the refusal of unsigned requests",
        "return document.getElementById('status').textContent.includes('ListTables: MissingAuthenticationTokenException')",
    )
    .await;
    type_into(client, "access-key", "AKIDCONSOLE").await;
    type_into(client, "secret-key", "not-the-secret").await;
    click(client, "#save-credentials").await;
    wait_until(
        client,
        "the refusal of a wrong signature",
        "return document.getElementById('status').textContent.includes('InvalidSignatureException')",
    )
    .await;
    type_into(client, "secret-key", "console-secret").await;
    click(client, "#save-credentials").await;
    wait_until(
        client,
        "signed requests to be served",
        "return document.getElementById('status').textContent === 'Signing DynamoDB\\'s requests as AKIDCONSOLE'",
    )
    .await;
    assert_eq!(
        text(client, "signing").await,
        "signing as AKIDCONSOLE in us-east-1"
    );
    click(client, "tr[data-table='signed']").await;
    wait_until(
        client,
        "the signed table's items",
        "return document.querySelectorAll('#items-out tr.item').length === 1",
    )
    .await;
    // The secret stays in the tab's session storage, not in the page's field.
    let field = client
        .execute("return document.getElementById('secret-key').value", vec![])
        .await
        .unwrap();
    assert_eq!(field, json!(""));
}
