//! `#[derive(Generate)]` for tapefuzz: use it through `tapefuzz::generators::Generate` (or
//! `tapefuzz::prelude::*`), where it is documented with examples.
//!
//! The derive implements `tapefuzz::generators::Generate` with a generator struct of its own
//! (`__TapefuzzGen_<Type>`) that draws exactly what the equivalent combinators draw: a
//! struct's fields in order, each in a `field` span (a tuple of the field generators,
//! mapped); an enum's variant as one `one_of` choice (or a `weighted` one when a variant has
//! a weight), then the variant's fields. Recursive types (a field that mentions `Self` or
//! the type's own name, or is marked `#[generate(recursive)]`) are bounded by a size budget
//! drawn at the root (see `tapefuzz::generators::derived`).
#![deny(missing_docs)]

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as TokenStream2, TokenTree};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{
    Attribute, Data, DeriveInput, Error, Expr, Fields, GenericArgument, Ident, LitInt,
    PathArguments, Result, Type, parse_macro_input, parse_quote,
};

/// Derives `tapefuzz::generators::Generate` for a struct or an enum. Documented (with
/// examples) at its re-export, `tapefuzz::generators::Generate`.
///
/// Attributes, all under `#[generate(...)]`:
///
/// - on a field: `range = <range>` (an integer field: `ints::<T>(range)`), `size = <range>`
///   (a collection or string field: its default generator with this size), `with = <expr>`
///   (any generator of the field's type), `skip` (`Default::default()`), `default = <expr>`
///   (that value, nothing drawn), `recursive` (count the field as recursive, for recursion
///   through other types);
/// - on a variant: `weight = <integer>` (a `weighted` union; 0 or `skip` never picks it);
/// - on a recursive type: `size = <integer>` (at most this many branch nodes, default 24),
///   `depth = <integer>` (at most this many levels, default 16).
#[proc_macro_derive(Generate, attributes(generate))]
pub fn derive_generate(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match expand(input) {
        Ok(ts) => ts.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// What a field's generator is.
enum How {
    /// `<T as Generate>::generator()`.
    Any,
    /// `ints::<T>(range)`.
    Range(Expr),
    /// `<T as GenerateSized>::generator_sized(size)`.
    Size(Expr),
    /// A generator expression, boxed.
    With(Expr),
    /// `Default::default()`, nothing drawn.
    Skip,
    /// This value, nothing drawn.
    Value(Expr),
}

struct Field {
    /// `Some` for named fields.
    ident: Option<Ident>,
    /// Position among the struct's (or the variant's) fields.
    index: usize,
    ty: Type,
    how: How,
    recursive: bool,
    /// For a recursive field that holds the type itself (`Box<Self>`, `Option<Box<Self>>`,
    /// `Vec<Self>`…): its generator, built around `self` (no slot: the derived type's
    /// generator is this one).
    self_gen: Option<TokenStream2>,
    /// Name of the generator struct's field that holds this field's generator.
    slot: Ident,
}

struct Variant {
    ident: Ident,
    fields: Vec<Field>,
    style: Style,
    weight: Option<u64>,
}

#[derive(Clone, Copy)]
enum Style {
    Named,
    Unnamed,
    Unit,
}

fn style_of(fields: &Fields) -> Style {
    match fields {
        Fields::Named(_) => Style::Named,
        Fields::Unnamed(_) => Style::Unnamed,
        Fields::Unit => Style::Unit,
    }
}

/// Whether `tokens` mention `Self` or `name` anywhere.
fn mentions(tokens: TokenStream2, name: &Ident) -> bool {
    tokens.into_iter().any(|t| match t {
        TokenTree::Ident(i) => i == "Self" || i == *name,
        TokenTree::Group(g) => mentions(g.stream(), name),
        _ => false,
    })
}

/// `tokens` with every `Self` replaced by `self_ty` (the generator struct's code names the
/// derived type, not itself).
fn replace_self(tokens: TokenStream2, self_ty: &TokenStream2) -> TokenStream2 {
    tokens
        .into_iter()
        .flat_map(|t| -> TokenStream2 {
            match t {
                TokenTree::Ident(i) if i == "Self" => self_ty.clone(),
                TokenTree::Group(g) => {
                    let mut out =
                        proc_macro2::Group::new(g.delimiter(), replace_self(g.stream(), self_ty));
                    out.set_span(g.span());
                    TokenTree::Group(out).into()
                }
                t => t.into(),
            }
        })
        .collect()
}

fn parse_field_attrs(attrs: &[Attribute]) -> Result<(How, bool)> {
    let mut how: Option<(How, Span)> = None;
    let mut recursive = false;
    for attr in attrs.iter().filter(|a| a.path().is_ident("generate")) {
        attr.parse_nested_meta(|meta| {
            let span = meta.path.span();
            let set = |how: &mut Option<(How, Span)>, h: How| {
                if let Some((_, first)) = how {
                    let mut e = Error::new(
                        span,
                        "only one of `range`, `size`, `with`, `skip` and `default` per field",
                    );
                    e.combine(Error::new(*first, "the first one is here"));
                    return Err(e);
                }
                *how = Some((h, span));
                Ok(())
            };
            if meta.path.is_ident("range") {
                set(&mut how, How::Range(meta.value()?.parse()?))
            } else if meta.path.is_ident("size") {
                set(&mut how, How::Size(meta.value()?.parse()?))
            } else if meta.path.is_ident("with") {
                set(&mut how, How::With(meta.value()?.parse()?))
            } else if meta.path.is_ident("default") {
                set(&mut how, How::Value(meta.value()?.parse()?))
            } else if meta.path.is_ident("skip") {
                set(&mut how, How::Skip)
            } else if meta.path.is_ident("recursive") {
                recursive = true;
                Ok(())
            } else if meta.path.is_ident("weight") {
                Err(meta.error("`weight` goes on an enum variant, not on a field"))
            } else {
                Err(meta.error(
                    "unknown `generate` attribute on a field: expected `range = ..`, `size = ..`, \
                     `with = ..`, `skip`, `default = ..` or `recursive`",
                ))
            }
        })?;
    }
    Ok((how.map_or(How::Any, |(h, _)| h), recursive))
}

/// The type's bounds (`#[generate(size = N, depth = D)]` on the struct or enum), each `None`
/// when not given, with the span of the first attribute for the error on a type that is not
/// recursive.
struct TypeAttrs {
    size: Option<u64>,
    depth: Option<u32>,
    span: Option<Span>,
}

impl TypeAttrs {
    /// `derived::Limits` with the defaults for what is not given.
    fn limits(&self) -> TokenStream2 {
        let tf = quote!(::tapefuzz::generators::derived);
        let size = self.size.map_or(quote!(#tf::MAX_BUDGET), |n| quote!(#n));
        let depth = self.depth.map_or(quote!(#tf::MAX_DEPTH), |n| quote!(#n));
        quote!(#tf::Limits { size: #size, depth: #depth })
    }

    /// An error when bounds are given on a type without recursion.
    fn only_recursive(&self, recursive: bool) -> Result<()> {
        match self.span {
            Some(span) if !recursive => Err(Error::new(
                span,
                "`size` and `depth` on a type bound recursive types (a field that holds the type \
                 itself, or is marked `#[generate(recursive)]`); for a collection or string \
                 field, put `size = <range>` on the field",
            )),
            _ => Ok(()),
        }
    }
}

fn parse_type_attrs(attrs: &[Attribute]) -> Result<TypeAttrs> {
    let mut out = TypeAttrs {
        size: None,
        depth: None,
        span: None,
    };
    for attr in attrs.iter().filter(|a| a.path().is_ident("generate")) {
        attr.parse_nested_meta(|meta| {
            out.span.get_or_insert(meta.path.span());
            if meta.path.is_ident("size") {
                if out.size.is_some() {
                    return Err(meta.error("only one `size` per type"));
                }
                let lit: LitInt = meta.value()?.parse().map_err(|e| {
                    Error::new(
                        e.span(),
                        "`size` on a type is an integer: the most branch nodes of a value",
                    )
                })?;
                out.size = Some(lit.base10_parse::<u32>()?.into());
                Ok(())
            } else if meta.path.is_ident("depth") {
                if out.depth.is_some() {
                    return Err(meta.error("only one `depth` per type"));
                }
                let lit: LitInt = meta.value()?.parse()?;
                out.depth = Some(lit.base10_parse::<u32>()?);
                Ok(())
            } else {
                Err(meta.error(
                    "unknown `generate` attribute on a type: expected `size = <integer>` or \
                     `depth = <integer>` (field and variant attributes go on those)",
                ))
            }
        })?;
    }
    Ok(out)
}

/// A variant's weight: `None` without an attribute, `Some(0)` for `skip`.
fn parse_variant_attrs(attrs: &[Attribute]) -> Result<Option<u64>> {
    let mut weight = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("generate")) {
        attr.parse_nested_meta(|meta| {
            if weight.is_some() {
                return Err(meta.error("only one `weight` (or `skip`) per variant"));
            }
            if meta.path.is_ident("weight") {
                let lit: LitInt = meta.value()?.parse()?;
                weight = Some(lit.base10_parse::<u32>()? as u64);
                Ok(())
            } else if meta.path.is_ident("skip") {
                weight = Some(0);
                Ok(())
            } else if ["range", "size", "with", "default", "recursive"]
                .iter()
                .any(|k| meta.path.is_ident(k))
            {
                Err(meta.error("this `generate` attribute goes on a field, not on a variant"))
            } else {
                Err(meta.error(
                    "unknown `generate` attribute on a variant: expected `weight = <integer>` or `skip`",
                ))
            }
        })?;
    }
    Ok(weight)
}

fn parse_fields(
    fields: &Fields,
    name: &Ident,
    self_ty: &TokenStream2,
    prefix: &str,
) -> Result<Vec<Field>> {
    let mut out = Vec::new();
    for (index, f) in fields.iter().enumerate() {
        let (how, marked) = parse_field_attrs(&f.attrs)?;
        let ty = &f.ty;
        let recursive = marked || mentions(quote!(#ty), name);
        let recursive = match how {
            How::Skip | How::Value(_) => false,
            _ => recursive,
        };
        let ty: Type = syn::parse2(replace_self(quote!(#ty), self_ty))?;
        let self_gen = match how {
            How::Any if recursive => around_self(&ty, self_ty),
            _ => None,
        };
        out.push(Field {
            ident: f.ident.clone(),
            index,
            ty,
            how,
            recursive,
            self_gen,
            slot: format_ident!("{}f{}", prefix, index),
        });
    }
    Ok(out)
}

/// The generator of a recursive field built around `self` when the field holds the derived
/// type itself: `Box<Self>`, `Option<Box<Self>>`, `Option<Self>`… and `Vec<Self>`,
/// `Vec<Box<Self>>` (the same choices as the default generators of these types).
fn around_self(ty: &Type, self_ty: &TokenStream2) -> Option<TokenStream2> {
    let tf = quote!(::tapefuzz::generators);
    let me = self_ty.to_string();
    let is_me = |t: &Type| quote!(#t).to_string() == me;
    let direct = |t: &Type| -> Option<TokenStream2> {
        if is_me(t) {
            return Some(quote!(self));
        }
        let x = single_arg(t, "Box")?;
        is_me(x).then(|| quote!(#tf::derived::Boxing::new(self)))
    };
    if let Some(inner) = single_arg(ty, "Option") {
        let g = direct(inner)?;
        return Some(quote!(#tf::derived::RecursiveOption::new(#g)));
    }
    if let Some(inner) = single_arg(ty, "Vec") {
        let g = direct(inner)?;
        return Some(quote!(#tf::derived::RecursiveVec::new(#g)));
    }
    if single_arg(ty, "Box").is_some() {
        return direct(ty);
    }
    None
}

/// `Some(inner)` when `ty` is syntactically `Option<inner>` (`which == "Option"`) or
/// `Vec<inner>`.
fn single_arg<'a>(ty: &'a Type, which: &str) -> Option<&'a Type> {
    let Type::Path(p) = ty else { return None };
    if p.qself.is_some() {
        return None;
    }
    let last = p.path.segments.last()?;
    if last.ident != which {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    if args.args.len() != 1 {
        return None;
    }
    match args.args.first()? {
        GenericArgument::Type(t) => Some(t),
        _ => None,
    }
}

/// The generator's type and its constructor expression, for a field that draws.
fn generator_of(f: &Field) -> (TokenStream2, TokenStream2) {
    let ty = &f.ty;
    let tf = quote!(::tapefuzz::generators);
    match &f.how {
        How::Any if f.recursive => {
            // `Box<X>` in a recursive position: boxed directly (`any::<Box<X>>()` maps
            // through a function pointer); same choices.
            let direct = |t: &Type| -> (TokenStream2, TokenStream2) {
                match single_arg(t, "Box") {
                    Some(x) => (
                        quote!(#tf::derived::Boxing<<#x as #tf::Generate>::Generator>),
                        quote!(#tf::derived::Boxing::new(<#x as #tf::Generate>::generator())),
                    ),
                    None => (
                        quote!(<#t as #tf::Generate>::Generator),
                        quote!(<#t as #tf::Generate>::generator()),
                    ),
                }
            };
            if let Some(inner) = single_arg(ty, "Option") {
                let (g, c) = direct(inner);
                return (
                    quote!(#tf::derived::RecursiveOption<#g>),
                    quote!(#tf::derived::RecursiveOption::new(#c)),
                );
            }
            if let Some(inner) = single_arg(ty, "Vec") {
                let (g, c) = direct(inner);
                return (
                    quote!(#tf::derived::RecursiveVec<#g>),
                    quote!(#tf::derived::RecursiveVec::new(#c)),
                );
            }
            direct(ty)
        }
        How::Any => (
            quote!(<#ty as #tf::Generate>::Generator),
            quote!(<#ty as #tf::Generate>::generator()),
        ),
        How::Range(e) => (
            quote!(#tf::Ints<#ty>),
            quote_spanned!(e.span()=> #tf::ints::<#ty>(#e)),
        ),
        How::Size(e) => (
            quote!(<#ty as #tf::Generate>::Generator),
            quote_spanned!(e.span()=> <#ty as #tf::GenerateSized>::generator_sized(#tf::SizeRange::from(#e))),
        ),
        How::With(e) => (
            quote!(#tf::Boxed<#ty>),
            quote_spanned!(e.span()=> #tf::GenExt::boxed(#e)),
        ),
        How::Skip | How::Value(_) => unreachable!("no generator"),
    }
}

fn draws(f: &Field) -> bool {
    !matches!(f.how, How::Skip | How::Value(_))
}

/// The generator struct's fields and their initialisers.
fn slots(fields: &[Field]) -> (Vec<TokenStream2>, Vec<TokenStream2>) {
    let mut decl = Vec::new();
    let mut init = Vec::new();
    for f in fields.iter().filter(|f| draws(f) && f.self_gen.is_none()) {
        let (ty, _) = generator_of(f);
        let slot = &f.slot;
        if f.recursive {
            // Built on first use: building it at once would build this very generator again.
            decl.push(quote!(#slot: ::core::cell::OnceCell<::std::boxed::Box<#ty>>));
            init.push(quote!(#slot: ::core::cell::OnceCell::new()));
        } else {
            let (_, ctor) = generator_of(f);
            decl.push(quote!(#slot: #ty));
            init.push(quote!(#slot: #ctor));
        }
    }
    (decl, init)
}

/// The generator of a field that draws, as a reference expression in the generator's
/// methods: its slot, or for a recursive field the generator built around `self` or on first
/// use.
fn field_generator(f: &Field) -> TokenStream2 {
    let slot = &f.slot;
    if !f.recursive {
        return quote!(&self.#slot);
    }
    match &f.self_gen {
        Some(g) => quote!(&#g),
        None => {
            let (_, ctor) = generator_of(f);
            quote!(&**self.#slot.get_or_init(|| ::std::boxed::Box::new(#ctor)))
        }
    }
}

/// A pattern of `path` that binds `__v<index>` (a reference) to every field that draws and
/// ignores the others.
fn pattern(path: TokenStream2, fields: &[Field], style: Style) -> TokenStream2 {
    let bind = |f: &Field| {
        if draws(f) {
            let v = format_ident!("__v{}", f.index);
            quote!(#v)
        } else {
            quote!(_)
        }
    };
    match style {
        Style::Named => {
            let parts = fields.iter().map(|f| {
                let id = &f.ident;
                let b = bind(f);
                quote!(#id: #b)
            });
            quote!(#path { #(#parts),* })
        }
        Style::Unnamed => {
            let parts = fields.iter().map(bind);
            quote!(#path ( #(#parts),* ))
        }
        Style::Unit => quote!(#path),
    }
}

/// Statements reflecting every field that draws (bound by [`pattern`]) into `__out`, in
/// order, each error given the field's step (`.name`, `.0`). With `node` (a recursive
/// struct's node), recursive fields go through `__node` (a `derived::StructNode`), which
/// tells whether they hold their default (a leaf node does not draw them).
fn reflect_fields(fields: &[Field], node: bool) -> TokenStream2 {
    let tf = quote!(::tapefuzz);
    let stmts = fields.iter().filter(|f| draws(f)).map(|f| {
        let v = format_ident!("__v{}", f.index);
        let step = match &f.ident {
            Some(id) => format!(".{id}"),
            None => format!(".{}", f.index),
        };
        let generator = field_generator(f);
        if node && f.recursive {
            let ty = &f.ty;
            quote! {
                __node.field(__out, #generator, #v, &<#ty as ::core::default::Default>::default())
                    .map_err(|__e| __e.at(#step))?;
            }
        } else {
            quote! {
                #tf::generators::Gen::reflect(#generator, #v, __out)
                    .map_err(|__e| __e.at(#step))?;
            }
        }
    });
    quote!(#(#stmts)*)
}

/// `reflect` of a union among `chosen` (indices into `all`), drawn as [`union`] draws it:
/// one match arm per chosen variant recording its index (the first of its block, with
/// weights) and its fields, inside a node when `node` says whether it is a branch.
fn reflect_union_arms(
    name: &Ident,
    type_name: &str,
    all: &[Variant],
    chosen: &[usize],
    weighted: bool,
    node: Option<bool>,
    limits: &TokenStream2,
) -> Vec<TokenStream2> {
    let tf = quote!(::tapefuzz);
    let total: u64 = if weighted {
        chosen.iter().map(|&vi| all[vi].weight.unwrap_or(1)).sum()
    } else {
        chosen.len() as u64
    };
    let max = total - 1;
    let mut start = 0u64;
    chosen
        .iter()
        .enumerate()
        .map(|(k, &vi)| {
            let v = &all[vi];
            let id = &v.ident;
            let index = if weighted { start } else { k as u64 };
            start += v.weight.unwrap_or(1);
            let pat = pattern(quote!(#name::#id), &v.fields, v.style);
            let fields = reflect_fields(&v.fields, false);
            let body = quote! {
                __out.draw(#max, #index);
                #fields
                ::core::result::Result::Ok(())
            };
            match node {
                None => quote!(#pat => { #body }),
                Some(branch) => quote! {
                    #pat => #tf::generators::derived::reflect_node(__out, #type_name, #limits,
                        #branch,
                        |__out| { #body })
                },
            }
        })
        .collect()
}

/// Arms for the variants no union draws (`skip`, weight 0): an error naming them.
fn never_arms(name: &Ident, type_name: &str, all: &[Variant]) -> Vec<TokenStream2> {
    let tf = quote!(::tapefuzz);
    all.iter()
        .filter(|v| v.weight == Some(0))
        .map(|v| {
            let id = &v.ident;
            let why = format!("variant `{id}` is never generated (`skip` or weight 0)");
            quote! {
                #name::#id { .. } => ::core::result::Result::Err(
                    #tf::generators::NoInverse::new(#type_name, #why)
                )
            }
        })
        .collect()
}

/// Statements binding `__v<index>` for every field, then the constructor of `path`.
/// `branch` is the name of the recursion flag in scope (recursive fields take
/// `Default::default()` when it is false), or `None` outside recursive nodes.
fn build(path: TokenStream2, fields: &[Field], style: Style, branch: bool) -> TokenStream2 {
    let tf = quote!(::tapefuzz);
    let mut stmts = Vec::new();
    let mut vals = Vec::new();
    for f in fields {
        let v = format_ident!("__v{}", f.index);
        let i = f.index as u64;
        let slot = &f.slot;
        let value = match &f.how {
            How::Skip => quote!(::core::default::Default::default()),
            How::Value(e) => quote!(#e),
            _ if f.recursive => {
                let generator = field_generator(f);
                let draw = quote! {
                    __tape.span(const { #tf::tape::builtin::FIELD.indexed(#i) }, |__t| {
                        #tf::generators::Gen::generate(#generator, __t)
                    })?
                };
                if branch {
                    quote!(if __branch { #draw } else { ::core::default::Default::default() })
                } else {
                    draw
                }
            }
            _ => quote! {
                __tape.span(const { #tf::tape::builtin::FIELD.indexed(#i) }, |__t| {
                    #tf::generators::Gen::generate(&self.#slot, __t)
                })?
            },
        };
        stmts.push(quote!(let #v = #value;));
        vals.push((f.ident.clone(), v));
    }
    let ctor = match style {
        Style::Named => {
            let parts = vals.iter().map(|(id, v)| quote!(#id: #v));
            quote!(#path { #(#parts),* })
        }
        Style::Unnamed => {
            let parts = vals.iter().map(|(_, v)| v);
            quote!(#path ( #(#parts),* ))
        }
        Style::Unit => quote!(#path),
    };
    quote! { #(#stmts)* ::core::result::Result::Ok(#ctor) }
}

/// A union choice among `variants` (indices into `all`), drawn as `one_of` draws it (no
/// weights) or as `weighted` does, then the chosen variant's fields in a `variant` span.
fn union(
    name: &Ident,
    all: &[Variant],
    chosen: &[usize],
    weighted: bool,
    branch: bool,
) -> TokenStream2 {
    let tf = quote!(::tapefuzz);
    let arms = chosen.iter().enumerate().map(|(k, &vi)| {
        let v = &all[vi];
        let id = &v.ident;
        let body = build(quote!(#name::#id), &v.fields, v.style, branch);
        let k = k as u64;
        quote!(#k => __tape.span(const { #tf::tape::builtin::VARIANT.indexed(#k) }, |__tape| { #body }))
    });
    let last = chosen.len() as u64 - 1;
    let pick = if weighted {
        let mut end = 0u64;
        let mut tests = Vec::new();
        for (k, &vi) in chosen.iter().enumerate() {
            end += all[vi].weight.unwrap_or(1);
            let k = k as u64;
            tests.push(quote!(if __i < #end { #k } else));
        }
        quote! {
            let __i = __tape.draw(#tf::tape::builtin::WEIGHTED, #end - 1, #tf::tape::Hint::Uniform)?;
            let __k: u64 = #(#tests)* { #last };
        }
    } else {
        quote! {
            let __k = __tape.draw(#tf::tape::builtin::ONE_OF, #last, #tf::tape::Hint::Uniform)?;
        }
    };
    quote! {
        #pick
        match __k {
            #(#arms,)*
            _ => ::core::unreachable!(),
        }
    }
}

fn expand(input: DeriveInput) -> Result<TokenStream2> {
    let name = &input.ident;
    let vis = &input.vis;
    let gen_name = format_ident!("__TapefuzzGen_{}", name);
    let tf = quote!(::tapefuzz);

    let mut generics = input.generics.clone();
    for p in generics.type_params_mut() {
        p.bounds.push(parse_quote!(#tf::generators::Generate));
    }
    let (impl_g, ty_g, where_g) = generics.split_for_impl();
    let self_ty = quote!(#name #ty_g);
    let type_name = format!("any::<{name}>()");
    let type_attrs = parse_type_attrs(&input.attrs)?;
    let limits = type_attrs.limits();

    let (decl, init, body, reflect) = match &input.data {
        Data::Struct(s) => {
            let fields = parse_fields(&s.fields, name, &self_ty, "")?;
            let (decl, init) = slots(&fields);
            let recursive = fields.iter().any(|f| f.recursive);
            let built = build(quote!(#name), &fields, style_of(&s.fields), recursive);
            let pat = pattern(quote!(#name), &fields, style_of(&s.fields));
            let reflected = reflect_fields(&fields, recursive);
            type_attrs.only_recursive(recursive)?;
            let (body, reflect) = if recursive {
                (
                    quote! {
                        #tf::generators::derived::node(__tape, #tf::generators::derived::P_STRUCT,
                            #limits, |__tape, __branch| { #built })
                    },
                    quote! {
                        let #pat = __value;
                        #tf::generators::derived::reflect_struct_node(__out, #type_name,
                            #limits, |__out, __node| { #reflected ::core::result::Result::Ok(()) })
                    },
                )
            } else {
                (
                    built,
                    quote! {
                        let #pat = __value;
                        #reflected
                        ::core::result::Result::Ok(())
                    },
                )
            };
            (decl, init, body, reflect)
        }
        Data::Enum(e) => {
            if e.variants.is_empty() {
                return Err(Error::new(
                    name.span(),
                    "#[derive(Generate)] needs at least one variant: an empty enum has no value",
                ));
            }
            let mut variants = Vec::new();
            for (vi, v) in e.variants.iter().enumerate() {
                let weight = parse_variant_attrs(&v.attrs)?;
                variants.push(Variant {
                    ident: v.ident.clone(),
                    fields: parse_fields(&v.fields, name, &self_ty, &format!("v{vi}_"))?,
                    style: style_of(&v.fields),
                    weight,
                });
            }
            let weighted = variants.iter().any(|v| v.weight.is_some());
            let active: Vec<usize> = (0..variants.len())
                .filter(|&i| variants[i].weight != Some(0))
                .collect();
            if active.is_empty() {
                return Err(Error::new(
                    name.span(),
                    "#[derive(Generate)]: every variant has weight 0 (or `skip`): none can be generated",
                ));
            }
            let total: u64 = active
                .iter()
                .map(|&i| variants[i].weight.unwrap_or(1))
                .sum();
            if total > u32::MAX as u64 {
                return Err(Error::new(
                    name.span(),
                    "the weights add up to more than 2^32 - 1",
                ));
            }
            let mut decl = Vec::new();
            let mut init = Vec::new();
            for v in &variants {
                let (d, i) = slots(&v.fields);
                decl.extend(d);
                init.extend(i);
            }
            let is_rec = |i: &usize| variants[*i].fields.iter().any(|f| f.recursive);
            let rec: Vec<usize> = active.iter().copied().filter(is_rec).collect();
            type_attrs.only_recursive(!rec.is_empty())?;
            let never = never_arms(name, &type_name, &variants);
            let reflect = if rec.is_empty() {
                let arms = reflect_union_arms(
                    name, &type_name, &variants, &active, weighted, None, &limits,
                );
                quote!(match __value { #(#arms,)* #(#never,)* })
            } else {
                let leaves: Vec<usize> = active.iter().copied().filter(|i| !is_rec(i)).collect();
                let leaf_arms = reflect_union_arms(
                    name,
                    &type_name,
                    &variants,
                    &leaves,
                    weighted,
                    Some(false),
                    &limits,
                );
                let rec_arms = reflect_union_arms(
                    name,
                    &type_name,
                    &variants,
                    &rec,
                    weighted,
                    Some(true),
                    &limits,
                );
                quote!(match __value { #(#leaf_arms,)* #(#rec_arms,)* #(#never,)* })
            };
            let body = if rec.is_empty() {
                union(name, &variants, &active, weighted, false)
            } else {
                let leaves: Vec<usize> = active.iter().copied().filter(|i| !is_rec(i)).collect();
                if leaves.is_empty() {
                    let first = &variants[rec[0]].ident;
                    return Err(Error::new(
                        first.span(),
                        "#[derive(Generate)]: a recursive enum needs a variant without a recursive \
                         field (a leaf) to end its values",
                    ));
                }
                let leaf = union(name, &variants, &leaves, weighted, false);
                let branch = union(name, &variants, &rec, weighted, false);
                quote! {
                    #tf::generators::derived::node(__tape, #tf::generators::derived::P_ENUM,
                        #limits, |__tape, __branch| if __branch { #branch } else { #leaf })
                }
            };
            (decl, init, body, reflect)
        }
        Data::Union(u) => {
            return Err(Error::new(
                u.union_token.span(),
                "#[derive(Generate)] supports structs and enums, not unions",
            ));
        }
    };

    let doc = format!("The generator `#[derive(Generate)]` made for [`{name}`].");
    let struct_where = where_g;
    Ok(quote! {
        #[doc = #doc]
        #[allow(non_camel_case_types)]
        #vis struct #gen_name #impl_g #struct_where {
            #(#decl,)*
            __marker: ::core::marker::PhantomData<fn() -> #name #ty_g>,
        }

        impl #impl_g ::core::fmt::Debug for #gen_name #ty_g #where_g {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(::core::stringify!(#gen_name))
            }
        }

        impl #impl_g #tf::generators::Gen for #gen_name #ty_g #where_g {
            type Value = #name #ty_g;
            #[allow(unused_variables, clippy::let_unit_value, clippy::redundant_closure_call)]
            fn generate(&self, __tape: &mut #tf::tape::Tape<'_>)
                -> ::core::result::Result<Self::Value, #tf::tape::Reject>
            {
                #body
            }

            fn reflect(
                &self,
                __value: &Self::Value,
                __out: &mut #tf::generators::Reflection,
            ) -> ::core::result::Result<(), #tf::generators::NoInverse> {
                #reflect
            }
        }

        impl #impl_g #tf::generators::Generate for #name #ty_g #where_g {
            type Generator = #gen_name #ty_g;
            fn generator() -> Self::Generator {
                #gen_name {
                    #(#init,)*
                    __marker: ::core::marker::PhantomData,
                }
            }
        }
    })
}
