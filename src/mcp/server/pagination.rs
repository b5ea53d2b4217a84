//! Pagination (`cursor` / `nextCursor`) and caching hints (`ttlMs` / `cacheScope`,
//! 2026-07-28).

use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Error as _, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::mcp::basic::ResultType;
use crate::mcp::basic::meta::Meta;
use crate::mcp::seq::Items;
use crate::wire::JsonStr;

/// Params of a paginated list request: `tools/list`, `prompts/list`, `resources/list`,
/// `resources/templates/list`, `tasks/list`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct PaginatedParams<'a> {
    /// Where to continue: a previous result's `nextCursor`, opaque.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<JsonStr<'a>>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// `cacheScope` (2026-07-28): who may reuse a cached result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "lowercase")]
pub enum CacheScope {
    /// Any client of the server.
    Public,
    /// Only the client that asked.
    Private,
}

/// What a paginated list holds, and the member its items go under in the result.
pub trait Listed {
    /// `tools`, `resources`, `resourceTemplates` or `prompts`.
    const FIELD: &'static str;
}

/// One page of a paginated list result (`tools/list`, `resources/list`,
/// `resources/templates/list`, `prompts/list`): the items under [`Listed::FIELD`], the
/// next page's cursor, and the 2026-07-28 caching fields.
///
/// ```
/// use mcp_sansio::mcp::{ListToolsResult, Tool, NO_ARGUMENTS};
/// let tools = [Tool::new("now", NO_ARGUMENTS).with_description("The time")];
/// let result = ListToolsResult::new(&tools);
/// assert_eq!(
///     serde_json::to_string(&result).unwrap(),
///     r#"{"tools":[{"name":"now","description":"The time","inputSchema":{"type":"object"}}]}"#
/// );
/// ```
pub struct ListResult<'a, T> {
    /// The items of this page.
    pub items: Items<'a, T>,
    /// Cursor of the next page; absent on the last.
    pub next_cursor: Option<JsonStr<'a>>,
    /// How long the result may be cached, in ms (2026-07-28, required there).
    pub ttl_ms: Option<u64>,
    /// Who may reuse it (2026-07-28, required there).
    pub cache_scope: Option<CacheScope>,
    /// `resultType` (2026-07-28, required there).
    pub result_type: Option<ResultType<'a>>,
    /// `_meta`
    pub meta: Option<Meta<'a>>,
}

impl<'a, T> ListResult<'a, T> {
    /// One page holding `items`, with no next page.
    pub const fn new(items: &'a [T]) -> Self {
        Self {
            items: Items::from_slice(items),
            next_cursor: None,
            ttl_ms: None,
            cache_scope: None,
            result_type: None,
            meta: None,
        }
    }

    /// With the cursor of the next page: the client asks for it with this string as the
    /// request's `cursor`.
    ///
    /// ```
    /// use mcp_sansio::mcp::{ListToolsResult, NO_ARGUMENTS, Tool};
    /// let page = [Tool::new("a", NO_ARGUMENTS)];
    /// let result = ListToolsResult::new(&page).with_next_cursor("page-2");
    /// assert_eq!(
    ///     serde_json::to_string(&result).unwrap(),
    ///     r#"{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"page-2"}"#
    /// );
    /// ```
    pub const fn with_next_cursor(mut self, cursor: &'a str) -> Self {
        self.next_cursor = Some(JsonStr::from_text(cursor));
        self
    }

    /// With the 2026-07-28 caching fields and `resultType: complete`.
    pub const fn cacheable(mut self, ttl_ms: u64, scope: CacheScope) -> Self {
        self.ttl_ms = Some(ttl_ms);
        self.cache_scope = Some(scope);
        self.result_type = Some(ResultType::Complete);
        self
    }
}

impl<T> Clone for ListResult<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ListResult<'_, T> {}

impl<'a, T: Clone + Deserialize<'a> + PartialEq> PartialEq for ListResult<'a, T> {
    fn eq(&self, other: &Self) -> bool {
        self.items == other.items
            && self.next_cursor == other.next_cursor
            && self.ttl_ms == other.ttl_ms
            && self.cache_scope == other.cache_scope
            && self.result_type == other.result_type
            && self.meta == other.meta
    }
}

impl<'a, T: Clone + Deserialize<'a> + fmt::Debug + Listed> fmt::Debug for ListResult<'a, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ListResult")
            .field(T::FIELD, &self.items)
            .field("next_cursor", &self.next_cursor)
            .field("ttl_ms", &self.ttl_ms)
            .field("cache_scope", &self.cache_scope)
            .field("result_type", &self.result_type)
            .field("meta", &self.meta)
            .finish()
    }
}

#[cfg(feature = "defmt")]
impl<T: Listed> defmt::Format for ListResult<'_, T> {
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(f, "ListResult {{ {=str}: {}, next_cursor: {} }}", T::FIELD, self.items, self.next_cursor)
    }
}

impl<T: Listed + Serialize> Serialize for ListResult<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let len = 1
            + usize::from(self.next_cursor.is_some())
            + usize::from(self.ttl_ms.is_some())
            + usize::from(self.cache_scope.is_some())
            + usize::from(self.result_type.is_some())
            + usize::from(self.meta.is_some());
        let mut st = s.serialize_struct("ListResult", len)?;
        st.serialize_field(T::FIELD, &self.items)?;
        if let Some(c) = &self.next_cursor {
            st.serialize_field("nextCursor", c)?;
        }
        if let Some(t) = &self.ttl_ms {
            st.serialize_field("ttlMs", t)?;
        }
        if let Some(c) = &self.cache_scope {
            st.serialize_field("cacheScope", c)?;
        }
        if let Some(r) = &self.result_type {
            st.serialize_field("resultType", r)?;
        }
        if let Some(m) = &self.meta {
            st.serialize_field("_meta", m)?;
        }
        st.end()
    }
}

/// The members of a list result.
enum Field {
    Items,
    NextCursor,
    TtlMs,
    CacheScope,
    ResultType,
    Meta,
    Other,
}

/// Reads a member name as a [`Field`], the items member being `T::FIELD`.
struct FieldSeed(&'static str);

impl<'de> DeserializeSeed<'de> for FieldSeed {
    type Value = Field;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Field, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl Visitor<'_> for FieldSeed {
    type Value = Field;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Field, E> {
        Ok(match v {
            _ if v == self.0 => Field::Items,
            "nextCursor" => Field::NextCursor,
            "ttlMs" => Field::TtlMs,
            "cacheScope" => Field::CacheScope,
            "resultType" => Field::ResultType,
            "_meta" => Field::Meta,
            _ => Field::Other,
        })
    }
}

impl<'de: 'a, 'a, T: Listed + 'a> Deserialize<'de> for ListResult<'a, T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ListVisitor<'a, T>(PhantomData<(&'a (), T)>);
        impl<'de: 'a, 'a, T: Listed + 'a> Visitor<'de> for ListVisitor<'a, T> {
            type Value = ListResult<'a, T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a list result with `{}`", T::FIELD)
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
                fn once<V, E: de::Error>(slot: &mut Option<V>, value: V, name: &'static str) -> Result<(), E> {
                    if slot.replace(value).is_some() { Err(E::duplicate_field(name)) } else { Ok(()) }
                }
                let (mut items, mut next_cursor, mut ttl_ms, mut cache_scope, mut result_type, mut meta) =
                    (None, None, None, None, None, None);
                while let Some(field) = map.next_key_seed(FieldSeed(T::FIELD))? {
                    match field {
                        Field::Items => once(&mut items, map.next_value()?, T::FIELD)?,
                        // `null` for an optional member means absent, as everywhere else.
                        Field::NextCursor => once(&mut next_cursor, map.next_value()?, "nextCursor")?,
                        Field::TtlMs => once(&mut ttl_ms, map.next_value()?, "ttlMs")?,
                        Field::CacheScope => once(&mut cache_scope, map.next_value()?, "cacheScope")?,
                        Field::ResultType => once(&mut result_type, map.next_value()?, "resultType")?,
                        Field::Meta => once(&mut meta, map.next_value()?, "_meta")?,
                        Field::Other => {
                            map.next_value::<de::IgnoredAny>()?;
                        }
                    }
                }
                Ok(ListResult {
                    items: items.ok_or_else(|| M::Error::missing_field(T::FIELD))?,
                    next_cursor: next_cursor.flatten(),
                    ttl_ms: ttl_ms.flatten(),
                    cache_scope: cache_scope.flatten(),
                    result_type: result_type.flatten(),
                    meta: meta.flatten(),
                })
            }
        }
        d.deserialize_struct("ListResult", &[], ListVisitor(PhantomData))
    }
}
