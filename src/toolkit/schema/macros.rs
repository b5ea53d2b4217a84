//! [`schema!`](crate::schema): a struct or enum declared once, with its JSON Schema.

/// Declares structs and unit-variant enums together with their JSON Schema, built at
/// compile time into one literal (no allocation, no proc-macro crate, works in `no_std`).
///
/// Write the items as usual, derives and serde attributes included; the macro emits them
/// unchanged and implements [`Schema`](crate::toolkit::Schema) for each, and
/// [`Arguments`](crate::toolkit::Arguments) for each struct (what a tool or a prompt
/// takes). What the schema says follows what serde reads:
///
/// * doc comments become `description`s (of the type, and of each field);
/// * `Option` fields and `#[serde(default)]` ones are not `required`;
/// * `#[serde(rename = "…")]` on a field or variant and `#[serde(rename_all = "…")]` on
///   the item rename members and variants (give each of these serde attributes its own
///   `#[serde(…)]`, so the macro sees it);
/// * a field's type gives its schema: integers with the bounds of their type, strings
///   (`&str`, [`JsonStr`](crate::wire::JsonStr), `heapless::String<N>` with `maxLength`,
///   `String`), `Option`, arrays, `heapless::Vec`, `Vec`, maps, and other items declared
///   with this macro, nested.
///
/// Structs may borrow from the request (`JsonStr<'a>` fields, with `#[serde(borrow)]`):
/// nothing is copied on the way to the handler. Recursive types are not supported (their
/// schema would be infinite: the build fails).
///
/// ```
/// use mcp_sansio::toolkit::Arguments;
/// use mcp_sansio::wire::JsonStr;
///
/// mcp_sansio::schema! {
///     /// Which forecast to give.
///     #[derive(serde::Deserialize)]
///     #[serde(rename_all = "camelCase")]
///     pub struct Forecast<'a> {
///         /// City name.
///         #[serde(borrow)]
///         pub city: JsonStr<'a>,
///         /// Days ahead.
///         pub days_ahead: Option<u8>,
///         pub units: Units,
///     }
///
///     #[derive(serde::Deserialize)]
///     #[serde(rename_all = "lowercase")]
///     pub enum Units { Metric, Imperial }
/// }
///
/// assert_eq!(
///     Forecast::SCHEMA.as_text(),
///     concat!(
///         r#"{"type":"object","description":"Which forecast to give.","properties":{"#,
///         r#""city":{"type":"string","description":"City name."},"#,
///         r#""daysAhead":{"type":["integer","null"],"description":"Days ahead.","minimum":0,"maximum":255},"#,
///         r#""units":{"type":"string","enum":["metric","imperial"]}},"required":["city","units"]}"#,
///     )
/// );
/// ```
#[macro_export]
macro_rules! schema {
    // ---- the items, one at a time ----
    () => {};
    (
        $(#[$($cattr:tt)*])*
        $vis:vis struct $name:ident <$lt:lifetime> {
            $( $(#[$($fattr:tt)*])* $fvis:vis $field:ident : $ty:ty ),* $(,)?
        }
        $($rest:tt)*
    ) => {
        $(#[$($cattr)*])*
        $vis struct $name<$lt> { $( $(#[$($fattr)*])* $fvis $field : $ty ),* }
        $crate::schema!(@object [$lt] $name [$name<'static>] [$name<'de>]
            [$crate::schema!(@rule $(#[$($cattr)*])*)] [$crate::schema!(@doc [] $(#[$($cattr)*])*)]
            $( [$field : $ty ; $(#[$($fattr)*])*] )*);
        $crate::schema!($($rest)*);
    };
    (
        $(#[$($cattr:tt)*])*
        $vis:vis struct $name:ident {
            $( $(#[$($fattr:tt)*])* $fvis:vis $field:ident : $ty:ty ),* $(,)?
        }
        $($rest:tt)*
    ) => {
        $(#[$($cattr)*])*
        $vis struct $name { $( $(#[$($fattr)*])* $fvis $field : $ty ),* }
        $crate::schema!(@object [] $name [$name] [$name]
            [$crate::schema!(@rule $(#[$($cattr)*])*)] [$crate::schema!(@doc [] $(#[$($cattr)*])*)]
            $( [$field : $ty ; $(#[$($fattr)*])*] )*);
        $crate::schema!($($rest)*);
    };
    (
        $(#[$($cattr:tt)*])*
        $vis:vis enum $name:ident {
            $( $(#[$($vattr:tt)*])* $variant:ident ),* $(,)?
        }
        $($rest:tt)*
    ) => {
        $(#[$($cattr)*])*
        $vis enum $name { $( $(#[$($vattr)*])* $variant ),* }
        $crate::schema!(@enum $name [$crate::schema!(@rule $(#[$($cattr)*])*)]
            [$crate::schema!(@doc [] $(#[$($cattr)*])*)] $( [$variant ; $(#[$($vattr)*])*] )*);
        $crate::schema!($($rest)*);
    };

    // ---- an enum's Schema ----
    (@enum $name:ident [$rule:expr] [$doc:expr] $( [$variant:ident ; $($vattrs:tt)*] )*) => {
        impl $crate::toolkit::Schema for $name {
            const NODE: $crate::toolkit::Node = $crate::toolkit::Node::Enum {
                description: $doc,
                values: &[ $( $crate::schema!(@name [$rule] true $variant $($vattrs)*) ),* ],
            };
        }
    };

    // ---- a struct's Schema and Arguments ----
    (@object [$($lt:lifetime)?] $name:ident [$st:ty] [$de:ty] [$rule:expr] [$doc:expr]
        $( [$field:ident : $ty:ty ; $($fattrs:tt)*] )*) => {
        impl $(<$lt>)? $crate::toolkit::Schema for $name $(<$lt>)? {
            const NODE: $crate::toolkit::Node = $crate::toolkit::Node::Object {
                description: $doc,
                properties: &[ $( $crate::toolkit::Property {
                    name: $crate::schema!(@name [$rule] false $field $($fattrs)*),
                    description: $crate::schema!(@doc [] $($fattrs)*),
                    node: &<$ty as $crate::toolkit::Schema>::NODE,
                    required: $crate::schema!(@required [$ty] $($fattrs)*),
                } ),* ],
            };
        }
        impl $crate::toolkit::Arguments for $st {
            type Decoded<'de> = $de;
            const SCHEMA: $crate::wire::RawJson<'static> = {
                use $crate::toolkit::__private as p;
                const NODE: $crate::toolkit::Node = <$st as $crate::toolkit::Schema>::NODE;
                const LEN: usize = p::schema_len(&NODE);
                const TEXT: [u8; LEN] = p::render_schema::<LEN>(&NODE);
                $crate::wire::RawJson::from_static(p::text(&TEXT))
            };
            const FIELDS: &'static [$crate::toolkit::Property] = match <$st as $crate::toolkit::Schema>::NODE {
                $crate::toolkit::Node::Object { properties, .. } => properties,
                _ => &[],
            };
        }
    };

    // ---- what the attributes say ----
    // The container's rename_all rule.
    (@rule) => { $crate::toolkit::__private::Rename::None };
    (@rule #[serde(rename_all = $rule:literal)] $($rest:tt)*) => {
        $crate::toolkit::__private::Rename::parse($rule)
    };
    (@rule #[$($other:tt)*] $($rest:tt)*) => { $crate::schema!(@rule $($rest)*) };
    // A member's name on the wire.
    (@name [$rule:expr] $variant:tt $field:ident #[serde(rename = $name:literal)] $($rest:tt)*) => { $name };
    (@name [$rule:expr] $variant:tt $field:ident #[$($other:tt)*] $($rest:tt)*) => {
        $crate::schema!(@name [$rule] $variant $field $($rest)*)
    };
    (@name [$rule:expr] $variant:tt $field:ident) => {{
        use $crate::toolkit::__private as p;
        const RULE: p::Rename = $rule;
        const LEN: usize = p::renamed_len(RULE, stringify!($field), $variant);
        const TEXT: [u8; LEN] = p::renamed::<LEN>(RULE, stringify!($field), $variant);
        p::text(&TEXT)
    }};
    // Doc comments, joined.
    (@doc [$($line:literal)*] #[doc = $doc:literal] $($rest:tt)*) => { $crate::schema!(@doc [$($line)* $doc] $($rest)*) };
    (@doc [$($line:literal)*] #[$($other:tt)*] $($rest:tt)*) => { $crate::schema!(@doc [$($line)*] $($rest)*) };
    (@doc []) => { None };
    (@doc [$($line:literal)+]) => {{
        use $crate::toolkit::__private as p;
        const LINES: &[&str] = &[$($line),+];
        const LEN: usize = p::doc_len(LINES);
        const TEXT: [u8; LEN] = p::doc_text::<LEN>(LINES);
        if LEN == 0 { None } else { Some(p::text(&TEXT)) }
    }};
    // Whether a field must be present.
    (@required [$ty:ty] #[serde(default)] $($rest:tt)*) => { false };
    (@required [$ty:ty] #[serde(default = $path:literal)] $($rest:tt)*) => { false };
    (@required [$ty:ty] #[$($other:tt)*] $($rest:tt)*) => { $crate::schema!(@required [$ty] $($rest)*) };
    (@required [$ty:ty]) => { <$ty as $crate::toolkit::Schema>::REQUIRED };
}
