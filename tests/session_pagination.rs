//! Pagination end to end: a server paging a list with `CursorCodec`, a client walking it
//! with `PageWalker`, through a real pair of endpoints.

mod common;

use common::*;
use mcp_sansio::session::{CursorCodec, CursorError, Page, PageWalker, PaginationError, RequestOptions};
use mcp_sansio::wire::{RawJson, RequestId};
use serde::Serialize;

const PAGE: u32 = 5;

#[derive(Serialize)]
struct Tool {
    name: String,
}

#[derive(Serialize)]
struct ToolsPage<'c> {
    tools: Vec<Tool>,
    #[serde(rename = "nextCursor", skip_serializing_if = "Option::is_none")]
    next: Option<&'c str>,
}

/// The server application: answers every pending `tools/list` from `items`.
fn serve_pages(p: &mut Pair, codec: &CursorCodec, items: &[String]) -> usize {
    let mut served = 0;
    for ev in p.server.take() {
        let Ev::Request { id, method, params } = ev else { continue };
        assert_eq!(method, "tools/list");
        let id = RequestId::from_u64(id.parse().unwrap());
        let params = params.as_ref().map(|s| RawJson::parse(s.as_bytes()).unwrap());
        match codec.position(params) {
            Ok(start) => {
                let start = (start as usize).min(items.len());
                let end = (start + PAGE as usize).min(items.len());
                let cursor = codec.encode(end as u32);
                let page = ToolsPage {
                    tools: items[start..end].iter().map(|n| Tool { name: n.clone() }).collect(),
                    next: (end < items.len()).then(|| cursor.as_str()),
                };
                p.server.respond(&id, &page).unwrap();
            }
            Err(e) => {
                p.server.respond_error(&id, e.code(), e.message()).unwrap();
            }
        }
        served += 1;
    }
    served
}

/// The client application: walks every page; returns the names and the page count.
fn walk(p: &mut Pair, codec: &CursorCodec, items: &[String]) -> Result<(Vec<String>, u32), PaginationError> {
    let mut walker = PageWalker::<64>::new(100);
    let mut names = Vec::new();
    loop {
        let id =
            p.client.ep.send_request(p.now, "tools/list", Some(&walker.params()), RequestOptions::default()).unwrap();
        p.drive();
        assert_eq!(serve_pages(p, codec, items), 1);
        p.drive();
        let events = p.client.take();
        let [Ev::Response { id: got, result, .. }] = &events[..] else { panic!("{events:?}") };
        assert_eq!(got, &id.to_string());
        let result = RawJson::parse(result.as_bytes()).unwrap();
        for tool in result.get("tools").unwrap().elements() {
            names.push(tool.get("name").unwrap().as_str().unwrap().to_string());
        }
        if walker.next_page(result)? == Page::Done {
            return Ok((names, walker.pages()));
        }
    }
}

#[test]
fn a_list_is_walked_page_by_page_in_order() {
    let codec = CursorCodec::new(*b"pagination-key!!");
    for n in [0usize, 1, 4, 5, 6, 23, 100] {
        let items: Vec<String> = (0..n).map(|i| format!("tool-{i:03}")).collect();
        let mut p = Pair::ready();
        let (names, pages) = walk(&mut p, &codec, &items).unwrap();
        assert_eq!(names, items, "{n}");
        assert_eq!(pages as usize, n.div_ceil(PAGE as usize).max(1), "{n}");
        // The wire: the first request has no cursor; each next one carries the last
        // page's `nextCursor` verbatim.
        let requests: Vec<String> = p.client.sent_lines().into_iter().filter(|l| l.contains("tools/list")).collect();
        assert_eq!(requests[0], r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#);
        for (k, line) in requests.iter().enumerate().skip(1) {
            let cursor = codec.encode(k as u32 * PAGE);
            assert_eq!(
                line,
                &format!(
                    r#"{{"jsonrpc":"2.0","id":{},"method":"tools/list","params":{{"cursor":"{}"}}}}"#,
                    k + 2,
                    cursor.as_str()
                )
            );
        }
        let last = p.server.sent_lines().pop().unwrap();
        assert!(!last.contains("nextCursor"), "{last}");
    }
}

#[test]
fn forged_and_stale_cursors_get_invalid_params() {
    let codec = CursorCodec::new([3; 16]);
    let items: Vec<String> = (0..12).map(|i| format!("t{i}")).collect();
    let mut p = Pair::ready();
    // A cursor the client made up, one from another server, and one of the wrong type.
    let other = CursorCodec::new([4; 16]).encode(5);
    for params in [
        r#"{"cursor":"00000005000000000000000000000000"}"#.to_string(),
        format!(r#"{{"cursor":"{}"}}"#, other.as_str()),
        r#"{"cursor":5}"#.to_string(),
        r#"{"cursor":"\u0030"}"#.to_string(),
    ] {
        let params = RawJson::parse(params.as_bytes()).unwrap();
        let id = p.client.ep.send_request(p.now, "tools/list", Some(&params), RequestOptions::default()).unwrap();
        p.drive();
        serve_pages(&mut p, &codec, &items);
        p.drive();
        assert_eq!(
            p.client.take(),
            vec![Ev::Error {
                id: id.to_string(),
                method: Some("tools/list".into()),
                code: -32602,
                message: "Invalid cursor".into()
            }]
        );
        assert_eq!(
            p.server.new_lines().last().unwrap(),
            &format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32602,"message":"Invalid cursor"}}}}"#)
        );
    }
    // The list changes between pages: the server moves to a new epoch.
    let mut walker = PageWalker::<64>::new(10);
    p.client.ep.send_request(p.now, "tools/list", Some(&walker.params()), RequestOptions::default()).unwrap();
    p.drive();
    serve_pages(&mut p, &codec, &items);
    p.drive();
    let Some(Ev::Response { result, .. }) = p.client.take().pop() else { panic!() };
    assert_eq!(walker.next_page(RawJson::parse(result.as_bytes()).unwrap()), Ok(Page::More));
    let changed = codec.with_epoch(1);
    let id = p.client.ep.send_request(p.now, "tools/list", Some(&walker.params()), RequestOptions::default()).unwrap();
    p.drive();
    serve_pages(&mut p, &changed, &items);
    p.drive();
    assert_eq!(
        p.client.take(),
        vec![Ev::Error {
            id: id.to_string(),
            method: Some("tools/list".into()),
            code: -32602,
            message: CursorError::Stale.message().into()
        }]
    );
    // A null cursor is the first page.
    let null = RawJson::parse(br#"{"cursor":null}"#).unwrap();
    p.client.ep.send_request(p.now, "tools/list", Some(&null), RequestOptions::default()).unwrap();
    p.drive();
    serve_pages(&mut p, &codec, &items);
    p.drive();
    assert!(matches!(p.client.take().pop(), Some(Ev::Response { result, .. }) if result.contains("\"t0\"")));
}

/// A broken server that hands out `next(page)` as the cursor after each page.
fn walk_broken(max_pages: u32, next: impl Fn(u32) -> String) -> (Result<Page, PaginationError>, u32) {
    let mut p = Pair::ready();
    let mut walker = PageWalker::<64>::new(max_pages);
    let mut page = 0;
    loop {
        let id =
            p.client.ep.send_request(p.now, "tools/list", Some(&walker.params()), RequestOptions::default()).unwrap();
        p.drive();
        p.server.take();
        let body = format!(r#"{{"tools":[],"nextCursor":"{}"}}"#, next(page));
        p.server.respond(&id, &RawJson::parse(body.as_bytes()).unwrap()).unwrap();
        p.drive();
        let Some(Ev::Response { result, .. }) = p.client.take().pop() else { panic!() };
        page += 1;
        match walker.next_page(RawJson::parse(result.as_bytes()).unwrap()) {
            Ok(Page::More) => continue,
            other => return (other, page),
        }
    }
}

#[test]
fn walking_a_broken_server_ends() {
    // The same cursor forever.
    assert_eq!(walk_broken(1000, |_| "again".into()), (Err(PaginationError::RepeatedCursor), 2));
    // A cycle of seven cursors.
    let (result, pages) = walk_broken(1000, |n| format!("c{}", n % 7));
    assert_eq!(result, Err(PaginationError::RepeatedCursor));
    assert!(pages <= 3 * 7 + 2, "{pages}");
    // Fresh cursors forever: the page cap stops it.
    assert_eq!(walk_broken(25, |n| format!("fresh-{n}")), (Err(PaginationError::TooManyPages { max: 25 }), 25));
    // A cursor longer than the walker stores.
    assert_eq!(walk_broken(10, |_| "x".repeat(65)), (Err(PaginationError::CursorTooLong { len: 65 }), 1));
}
