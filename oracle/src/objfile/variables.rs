//! Every variable and parameter of an object's DWARF: its location
//! (an expression, a location list, a constant, or none), the function it
//! belongs to (with that function's frame base), its declared line, and the
//! size of its type.

use super::{gimli_error, Object, Reader};
use dioptra_semantics::diag::Diag;
use dioptra_semantics::dwarf::op::Encoding;
use dioptra_semantics::dwarf::unit::{BaseType, MAX_BASE_TYPE_BYTES};
use gimli::{constants as c, AttributeValue};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// How many `DW_AT_abstract_origin`/`DW_AT_specification` links are followed
/// for a name, and `DW_AT_type` links for a size.
const MAX_LINKS: usize = 16;

/// One compilation unit: what evaluating its expressions needs.
#[derive(Clone, Debug)]
pub struct UnitInfo {
    /// `DW_AT_name` of the unit.
    pub name: String,
    pub version: u16,
    pub enc: Encoding,
    /// The unit's `DW_TAG_base_type` DIEs, by unit-relative offset (what
    /// `DW_OP_convert` and the other typed operations name).
    pub base_types: BTreeMap<u64, BaseType>,
    /// The unit's `.debug_addr` contribution (for `DW_OP_addrx`).
    pub addresses: Vec<u64>,
    /// A split unit's `.dwo` file: the skeleton's `DW_AT_dwo_name` (or
    /// gcc's `DW_AT_GNU_dwo_name` before DWARF 5), or once read the path
    /// it was read from (D-dwarf-split).
    pub dwo: Option<String>,
    /// Why a skeleton's `.dwo` was not read (not found, or without the
    /// skeleton's unit): its variables are not listed nor checked.
    pub dwo_missing: Option<String>,
}

impl UnitInfo {
    /// What the DWARF evaluator and the static check need of the unit: its
    /// base types.
    pub fn dwarf_unit(&self) -> dioptra_semantics::dwarf::unit::Unit {
        dioptra_semantics::dwarf::unit::Unit {
            base_types: self.base_types.clone(),
            ..Default::default()
        }
    }
}

/// Where a variable is, as its DIE says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// `DW_AT_location` with an expression.
    Expr(Vec<u8>),
    /// `DW_AT_location` with a location list: `[lo, hi)` and the expression.
    List(Vec<(u64, u64, Vec<u8>)>),
    /// `DW_AT_const_value` (no location; the value is in the DIE): its
    /// 64-bit pattern when it is a number (a signed form sign-extended),
    /// `None` for a block.
    Constant(Option<u64>),
    /// Neither: the variable was optimized out everywhere.
    None,
}

/// `[low, high)` address ranges, shared by the variables of one block.
pub type Pcs = Arc<[(u64, u64)]>;

/// A `DW_TAG_variable` or `DW_TAG_formal_parameter`.
#[derive(Clone, Debug)]
pub struct Variable {
    /// Index into [`Variables::units`].
    pub unit: usize,
    /// The DIE's offset in `.debug_info`.
    pub die: u64,
    pub name: String,
    pub parameter: bool,
    /// The enclosing subprogram's name (`None` for a global).
    pub function: Option<String>,
    /// The enclosing subprogram's `DW_AT_frame_base` expression.
    pub frame_base: Option<Vec<u8>>,
    /// The enclosing subprogram's `[low, high)` pcs.
    pub function_range: Option<(u64, u64)>,
    /// Where the variable is in scope: the `[low, high)` ranges of the
    /// innermost lexical block, inlined subroutine or subprogram that owns
    /// it and says its pcs (`DW_AT_low_pc`/`DW_AT_high_pc` or
    /// `DW_AT_ranges`; DWARF 5 Sections 3.5 and 2.17). `None` for a
    /// global, or when no owner says (then the function's range is all
    /// there is).
    pub scope: Option<Pcs>,
    pub line: Option<u64>,
    /// The type's name, as far as the `DW_AT_type` chain names it.
    pub type_name: Option<String>,
    /// The type's size in bytes, where the chain gives one.
    pub byte_size: Option<u64>,
    pub location: Location,
}

/// The variables of an object, with their units.
#[derive(Clone, Debug, Default)]
pub struct Variables {
    pub units: Vec<UnitInfo>,
    pub variables: Vec<Variable>,
}

/// The subprogram a DIE is inside.
#[derive(Clone)]
struct Scope {
    depth: isize,
    name: Option<String>,
    frame_base: Option<Vec<u8>>,
    range: Option<(u64, u64)>,
}

/// What the innermost DIE that owns a `DW_TAG_variable` or
/// `DW_TAG_formal_parameter` says it is.
#[derive(Clone)]
enum Owner {
    /// A subprogram with code (its variables are objects of the program).
    Function(Scope),
    /// A type (a `DW_TAG_subroutine_type`'s parameters, a class's static
    /// member declaration) or a subprogram declaration (a member
    /// function's parameters in its class): DWARF 5 Sections 5.7.8 and
    /// 3.3.1 give these DIEs no storage; the object, where there is one,
    /// is the defining DIE elsewhere (`DW_AT_specification`).
    NoObjects(isize),
}

impl Owner {
    fn depth(&self) -> isize {
        match self {
            Owner::Function(s) => s.depth,
            Owner::NoObjects(d) => *d,
        }
    }
}

/// The tags whose children describe a type rather than objects.
const TYPE_TAGS: [c::DwTag; 7] = [
    c::DW_TAG_subroutine_type,
    c::DW_TAG_structure_type,
    c::DW_TAG_class_type,
    c::DW_TAG_union_type,
    c::DW_TAG_interface_type,
    c::DW_TAG_enumeration_type,
    c::DW_TAG_array_type,
];

/// Reads every variable and parameter of `obj`: the objects of the program.
///
/// DECISION (D-dwarf-objects): a `DW_TAG_variable` or
/// `DW_TAG_formal_parameter` DIE is listed when it describes an object
/// with storage of its own: one of the unit or of a subprogram with code
/// (and its blocks and inlined calls). Not listed: the DIEs of an abstract
/// instance tree (the source's declarations, without a location; each
/// concrete instance, out of line or a `DW_TAG_inlined_subroutine`, has
/// its own DIE with `DW_AT_abstract_origin`, listed under the function
/// whose code holds it), the parameters of a type (`DW_TAG_subroutine_type`)
/// or of a subprogram declaration (a member function in its class), and a
/// variable declaration (`DW_AT_declaration`: `extern int x;`, whose
/// object is the defining DIE, here through `DW_AT_specification` or in
/// another unit). Listing them made `function::name` name two variables
/// (the abstract `add::a` and the out-of-line one, a declaration and its
/// definition) and counted them all as having no location;
/// `llvm-dwarfdump --statistics` counts the same objects.
pub fn variables(obj: &Object) -> Result<Variables, Diag> {
    let dwarf = obj.dwarf();
    let mut out = Variables::default();
    let mut ranges_left = MAX_SCOPE_RANGES;
    let types = TypeUnits::new(&dwarf);
    // The object's split-DWARF package, once looked for: none, or read,
    // or why it could not be.
    let mut package: Option<Option<Result<(Object, std::path::PathBuf), String>>> = None;
    let mut headers = dwarf.units();
    while let Some(header) = headers.next().map_err(|e| gimli_error(".debug_info", e))? {
        let unit = dwarf.unit(header).map_err(|e| gimli_error("unit", e))?;
        let mut info = unit_info(&dwarf, &unit)?;
        let (Some(id), Some(name)) = (unit.dwo_id, info.dwo.clone()) else {
            let at = Walk {
                die_base: 0,
                ranges_left: &mut ranges_left,
                types: &types,
            };
            walk_unit(&dwarf, &unit, info, &mut out, at)?;
            continue;
        };
        // D-dwarf-split: the skeleton's variables are in its .dwo, read
        // where the skeleton says (DW_AT_comp_dir) or beside the object;
        // else in the object's package (`prog.dwp`), read once.
        // A file that cannot be read as one (not an object, too large)
        // leaves the unit not read, with why; the other units are listed.
        let dwo_obj;
        let (split_dwarf, from) = match dwo_path(obj, &unit, &name) {
            Some(path) => match super::read(&path) {
                Ok(o) => {
                    dwo_obj = o;
                    (Some((dwo_obj.dwo_dwarf(&dwarf), 0)), path)
                }
                Err(d) => {
                    info.dwo_missing = Some(format!("`{}`: {d}", path.display()));
                    out.units.push(info);
                    continue;
                }
            },
            None => {
                let pkg = package.get_or_insert_with(|| {
                    dwp_path(obj).map(|p| match super::read(&p) {
                        Ok(o) => Ok((o, p)),
                        Err(d) => Err(format!("`{}`: {d}", p.display())),
                    })
                });
                match pkg {
                    Some(Ok((pkg, path))) => (pkg.dwp_dwarf(id, &dwarf)?, path.clone()),
                    Some(Err(why)) => {
                        info.dwo_missing = Some(format!("`{name}` is not found, and {why}"));
                        out.units.push(info);
                        continue;
                    }
                    None => {
                        info.dwo_missing =
                            Some(format!("`{name}` is not found, nor a package `.dwp`"));
                        out.units.push(info);
                        continue;
                    }
                }
            }
        };
        let mut found = false;
        if let Some((dwo, die_base)) = &split_dwarf {
            let dwo_types = TypeUnits::new(dwo);
            let mut dwo_headers = dwo.units();
            while let Some(h) = dwo_headers
                .next()
                .map_err(|e| gimli_error(".debug_info.dwo", e))?
            {
                let mut split = dwo.unit(h).map_err(|e| gimli_error("unit", e))?;
                if split.dwo_id != Some(id) {
                    continue;
                }
                split.copy_relocated_attributes(&unit);
                let mut split_info = unit_info(dwo, &split)?;
                split_info.dwo = Some(from.display().to_string());
                let at = Walk {
                    die_base: *die_base,
                    ranges_left: &mut ranges_left,
                    types: &dwo_types,
                };
                walk_unit(dwo, &split, split_info, &mut out, at)?;
                found = true;
                break;
            }
        }
        if !found {
            info.dwo_missing = Some(format!(
                "`{}` has no unit with the skeleton's DWO id {:#x}",
                from.display(),
                id.0
            ));
            out.units.push(info);
        }
    }
    Ok(out)
}

/// Where a skeleton's `.dwo` is: its name as written, against its unit's
/// `DW_AT_comp_dir` when relative; then beside the object file (its name,
/// then its file name alone, as a build moved with its objects).
fn dwo_path(obj: &Object, unit: &gimli::Unit<Reader>, name: &str) -> Option<std::path::PathBuf> {
    use std::path::{Path, PathBuf};
    let written = Path::new(name);
    let mut candidates: Vec<PathBuf> = Vec::new();
    let comp_dir = unit
        .comp_dir
        .map(|d| String::from_utf8_lossy(d.slice()).into_owned());
    match comp_dir {
        Some(d) if written.is_relative() => candidates.push(Path::new(&d).join(written)),
        _ => candidates.push(written.to_path_buf()),
    }
    if let Some(dir) = obj.path.as_deref().and_then(Path::parent) {
        candidates.push(dir.join(written));
        if let Some(file) = written.file_name() {
            candidates.push(dir.join(file));
        }
    }
    candidates.into_iter().find(|p| p.is_file())
}

/// The object's split-DWARF package, as gdb looks for it: `prog.dwp`
/// beside `prog`, or `prog.dwp` beside `prog.o`.
fn dwp_path(obj: &Object) -> Option<std::path::PathBuf> {
    let path = obj.path.as_deref()?;
    let mut whole = path.as_os_str().to_owned();
    whole.push(".dwp");
    [std::path::PathBuf::from(whole), path.with_extension("dwp")]
        .into_iter()
        .find(|p| p.is_file())
}

/// What a unit's walk is given beside the unit: where its `.debug_info`
/// starts in the file its DIE offsets name (a package's contribution),
/// and the scope ranges still to be read ([`MAX_SCOPE_RANGES`]).
struct Walk<'w, 'a> {
    die_base: u64,
    ranges_left: &'w mut usize,
    types: &'w TypeUnits<'a>,
}

/// The variables of one unit (a split unit read from its `.dwo` or
/// package too), with `info` as its entry in `out.units`.
fn walk_unit<'a>(
    dwarf: &gimli::Dwarf<Reader<'a>>,
    unit: &gimli::Unit<Reader<'a>>,
    info: UnitInfo,
    out: &mut Variables,
    at: Walk<'_, 'a>,
) -> Result<(), Diag> {
    let Walk {
        die_base,
        ranges_left,
        types: tus,
    } = at;
    let index = out.units.len();
    out.units.push(info);
    let mut scopes: Vec<Owner> = Vec::new();
    // The pcs of the blocks around the current DIE that say theirs, the
    // innermost last.
    let mut blocks: Vec<(isize, Pcs)> = Vec::new();
    let mut entries = unit.entries();
    while let Some(entry) = entries.next_dfs().map_err(|e| gimli_error("DIE", e))? {
        let depth = entry.depth();
        while scopes.last().is_some_and(|s| s.depth() >= depth) {
            scopes.pop();
        }
        while blocks.last().is_some_and(|b| b.0 >= depth) {
            blocks.pop();
        }
        let owns_code = match entry.tag() {
            c::DW_TAG_subprogram => !is_declaration(entry) && !is_abstract_root(entry),
            c::DW_TAG_lexical_block | c::DW_TAG_inlined_subroutine => true,
            _ => false,
        };
        if owns_code {
            if let Some(r) = block_ranges(dwarf, unit, entry, ranges_left) {
                blocks.push((depth, r));
            }
        }
        match entry.tag() {
            c::DW_TAG_subprogram if is_declaration(entry) || is_abstract_root(entry) => {
                scopes.push(Owner::NoObjects(depth));
            }
            c::DW_TAG_subprogram => {
                let frame_base = match entry.attr_value(c::DW_AT_frame_base) {
                    Some(AttributeValue::Exprloc(e)) => Some(e.0.slice().to_vec()),
                    _ => None,
                };
                scopes.push(Owner::Function(Scope {
                    depth,
                    name: name_of(dwarf, unit, entry)?,
                    frame_base,
                    range: pc_range(dwarf, unit, entry),
                }));
            }
            tag if TYPE_TAGS.contains(&tag) => scopes.push(Owner::NoObjects(depth)),
            c::DW_TAG_variable | c::DW_TAG_formal_parameter => {
                if is_declaration(entry) {
                    // `extern int x;`: the object is the defining DIE,
                    // here (through DW_AT_specification) or in another
                    // unit (D-dwarf-objects).
                    continue;
                }
                let scope = match scopes.last() {
                    Some(Owner::NoObjects(_)) => continue,
                    Some(Owner::Function(s)) => Some(s),
                    None => None,
                };
                let location = location_of(dwarf, unit, entry)?;
                let (type_name, byte_size) = type_of(dwarf, tus, unit, entry);
                let line =
                    through_origin(unit, entry, c::DW_AT_decl_line).and_then(|v| v.udata_value());
                out.variables.push(Variable {
                    unit: index,
                    die: entry
                        .offset()
                        .to_debug_info_offset(&unit.header)
                        .map_or(0, |o| o.0 as u64 + die_base),
                    name: name_of(dwarf, unit, entry)?.unwrap_or_else(|| "<unnamed>".to_string()),
                    parameter: entry.tag() == c::DW_TAG_formal_parameter,
                    function: scope.and_then(|s| s.name.clone()),
                    frame_base: scope.and_then(|s| s.frame_base.clone()),
                    function_range: scope.and_then(|s| s.range),
                    scope: scope.and_then(|_| blocks.last()).map(|b| Arc::clone(&b.1)),
                    line,
                    type_name,
                    byte_size,
                    location,
                });
            }
            _ => {}
        }
    }
    Ok(())
}

/// DWARF 5 Section 3.3.8.1: "Any subroutine entry that contains a
/// `DW_AT_inline` attribute whose value is other than
/// `DW_INL_not_inlined` is known as an abstract instance root", and the
/// entries it owns are its abstract instance tree (D-dwarf-objects).
fn is_abstract_root(entry: &gimli::DebuggingInformationEntry<Reader>) -> bool {
    match entry.attr_value(c::DW_AT_inline) {
        Some(AttributeValue::Inline(i)) => i != c::DW_INL_not_inlined,
        Some(_) => true,
        None => false,
    }
}

/// `DW_AT_declaration` is present and true.
fn is_declaration(entry: &gimli::DebuggingInformationEntry<Reader>) -> bool {
    matches!(
        entry.attr_value(c::DW_AT_declaration),
        Some(AttributeValue::Flag(true))
    )
}

fn unit_info(dwarf: &gimli::Dwarf<Reader>, unit: &gimli::Unit<Reader>) -> Result<UnitInfo, Diag> {
    let e = unit.encoding();
    let enc = Encoding {
        address_size: e.address_size,
        offset_size: e.format.word_size(),
        amd_single_byte: false,
    };
    let mut base_types = BTreeMap::new();
    let mut entries = unit.entries();
    while let Some(entry) = entries.next_dfs().map_err(|e| gimli_error("DIE", e))? {
        if entry.tag() != c::DW_TAG_base_type {
            continue;
        }
        let encoding = match entry.attr_value(c::DW_AT_encoding) {
            Some(AttributeValue::Encoding(a)) => a,
            _ => continue,
        };
        let Some(byte_size) = entry
            .attr_value(c::DW_AT_byte_size)
            .and_then(|v| v.udata_value())
            .filter(|&n| n <= MAX_BASE_TYPE_BYTES)
        else {
            continue;
        };
        let name = name_of(dwarf, unit, entry)?.unwrap_or_default();
        base_types.insert(
            entry.offset().0 as u64,
            BaseType {
                encoding,
                byte_size,
                name,
            },
        );
    }
    // The unit's address table: as many entries as its contribution holds.
    let mut addresses = Vec::new();
    if e.version >= 5 || unit.addr_base.0 != 0 {
        let per = e.address_size as usize;
        let available = dwarf
            .debug_addr
            .get_address(e.address_size, unit.addr_base, gimli::DebugAddrIndex(0))
            .is_ok();
        if available && per > 0 {
            let mut i = 0usize;
            while let Ok(a) = dwarf.debug_addr.get_address(
                e.address_size,
                unit.addr_base,
                gimli::DebugAddrIndex(i),
            ) {
                addresses.push(a);
                i += 1;
                if i > (1 << 24) {
                    break;
                }
            }
        }
    }
    let name = unit
        .name
        .map(|n| String::from_utf8_lossy(n.slice()).into_owned())
        .unwrap_or_default();
    // DECISION (D-dwarf-split): a split-DWARF skeleton unit (DWARF 5's
    // DW_UT_skeleton, or a DWARF 4 unit with gcc's DW_AT_GNU_dwo_id) holds
    // no variables: they are in its `.dwo` file, read as gdb and gimli
    // read it (its unit of the same DWO id, with the skeleton's address
    // table and bases). A `.dwo` that is not found, or has no such unit,
    // is said, and `dioptra dwarf` reports the skeleton as not checked
    // instead of an object without variables.
    let dwo = if unit.dwo_id.is_some() {
        let name = match unit.dwo_name() {
            Ok(Some(v)) => dwarf
                .attr_string(unit, v)
                .ok()
                .map(|s| String::from_utf8_lossy(s.slice()).into_owned()),
            _ => None,
        };
        Some(name.unwrap_or_else(|| "<no DW_AT_dwo_name>".to_string()))
    } else {
        None
    };
    Ok(UnitInfo {
        name,
        version: e.version,
        enc,
        base_types,
        addresses,
        dwo,
        dwo_missing: None,
    })
}

/// `DW_AT_name`, or the name of what `DW_AT_abstract_origin` or
/// `DW_AT_specification` refers to (inlined and out-of-line copies name
/// their variables that way).
fn name_of<'a>(
    dwarf: &gimli::Dwarf<Reader<'a>>,
    unit: &gimli::Unit<Reader<'a>>,
    entry: &gimli::DebuggingInformationEntry<Reader<'a>>,
) -> Result<Option<String>, Diag> {
    let mut cur = entry.clone();
    for _ in 0..MAX_LINKS {
        if let Some(v) = cur.attr_value(c::DW_AT_name) {
            let s = dwarf
                .attr_string(unit, v)
                .map_err(|e| gimli_error("DW_AT_name", e))?;
            return Ok(Some(String::from_utf8_lossy(s.slice()).into_owned()));
        }
        let next = [c::DW_AT_abstract_origin, c::DW_AT_specification]
            .iter()
            .find_map(|&a| match cur.attr_value(a) {
                Some(AttributeValue::UnitRef(o)) => Some(o),
                _ => None,
            });
        match next.and_then(|o| unit.entry(o).ok()) {
            Some(e) => cur = e,
            None => return Ok(None),
        }
    }
    Ok(None)
}

/// An array's size: its element's size times the count of each dimension
/// (`DW_AT_count`, or `DW_AT_upper_bound` + 1 from a lower bound of 0).
fn array_size<'a>(
    tus: &TypeUnits<'a>,
    unit: &gimli::Unit<Reader<'a>>,
    array: &gimli::DebuggingInformationEntry<Reader<'a>>,
    links: usize,
) -> Option<u64> {
    let (elem_unit, elem) = tus.follow(unit, array.attr_value(c::DW_AT_type)?)?;
    let mut size = element_size(tus, elem_unit, &elem, links)?;
    for count in dimensions(unit, array)? {
        size = size.checked_mul(count?)?;
    }
    Some(size)
}

/// An array's dimensions, outermost first: each `DW_TAG_subrange_type`'s
/// `DW_AT_count`, or `DW_AT_upper_bound` + 1 from a lower bound of 0;
/// `None` for a dimension without either (`int[]`).
fn dimensions<'a>(
    unit: &gimli::Unit<Reader<'a>>,
    array: &gimli::DebuggingInformationEntry<Reader<'a>>,
) -> Option<Vec<Option<u64>>> {
    let mut out = Vec::new();
    let mut tree = unit.entries_tree(Some(array.offset())).ok()?;
    let root = tree.root().ok()?;
    let mut children = root.children();
    while let Some(child) = children.next().ok()? {
        let d = child.entry();
        if d.tag() != c::DW_TAG_subrange_type {
            continue;
        }
        out.push(
            match d.attr_value(c::DW_AT_count).and_then(|v| v.udata_value()) {
                Some(n) => Some(n),
                None => d
                    .attr_value(c::DW_AT_upper_bound)
                    .and_then(|v| v.udata_value())
                    .and_then(|n| n.checked_add(1)),
            },
        );
    }
    Some(out)
}

/// The size of a type DIE, through typedefs and qualifiers: its
/// `DW_AT_byte_size`, the address size for a pointer or reference, or an
/// array's.
fn element_size<'a>(
    tus: &TypeUnits<'a>,
    unit: &gimli::Unit<Reader<'a>>,
    ty: &gimli::DebuggingInformationEntry<Reader<'a>>,
    links: usize,
) -> Option<u64> {
    let (mut unit, mut cur) = (unit, ty.clone());
    for _ in 0..links {
        if let Some(n) = cur
            .attr_value(c::DW_AT_byte_size)
            .and_then(|v| v.udata_value())
        {
            return Some(n);
        }
        match cur.tag() {
            c::DW_TAG_pointer_type | c::DW_TAG_reference_type | c::DW_TAG_rvalue_reference_type => {
                return Some(unit.encoding().address_size as u64)
            }
            c::DW_TAG_array_type => return array_size(tus, unit, &cur, links - 1),
            _ => (unit, cur) = qualified(tus, unit, &cur)?,
        }
    }
    None
}

/// Attribute `at` of `entry`, or of what its `DW_AT_abstract_origin` or
/// `DW_AT_specification` chain refers to: an inlined or concrete copy keeps
/// its name, type and line in its abstract instance, and the definition of
/// a C++ static data member in the member's declaration in its class
/// (DWARF 5 Section 2.13.2: the definition "inherits" the declaration's
/// attributes), as [`name_of`] follows them for the name.
fn through_origin<'a>(
    unit: &gimli::Unit<Reader<'a>>,
    entry: &gimli::DebuggingInformationEntry<Reader<'a>>,
    at: c::DwAt,
) -> Option<AttributeValue<Reader<'a>>> {
    let mut cur = entry.clone();
    for _ in 0..MAX_LINKS {
        if let Some(v) = cur.attr_value(at) {
            return Some(v);
        }
        let next = [c::DW_AT_abstract_origin, c::DW_AT_specification]
            .iter()
            .find_map(|&a| match cur.attr_value(a) {
                Some(AttributeValue::UnitRef(o)) => Some(o),
                _ => None,
            })?;
        cur = unit.entry(next).ok()?;
    }
    None
}

/// How many `[low, high)` ranges of blocks an object's reading keeps in
/// all: each block's list is read once, so this bounds the time and memory
/// a list that many blocks share (or one long list) can take. Past it a
/// block's variables are in scope where its parent's are: the answer stays
/// a superset of the pcs, never drops one (D-size-bounds).
const MAX_SCOPE_RANGES: usize = 1 << 22;

/// The non-empty `[low, high)` ranges a block's DIE gives, out of `left`;
/// `None` when it gives none, when they do not read, or past the bound.
fn block_ranges<'a>(
    dwarf: &gimli::Dwarf<Reader<'a>>,
    unit: &gimli::Unit<Reader<'a>>,
    entry: &gimli::DebuggingInformationEntry<Reader<'a>>,
    left: &mut usize,
) -> Option<Pcs> {
    let mut it = dwarf.die_ranges(unit, entry).ok()?;
    let mut out = Vec::new();
    while let Some(r) = it.next().ok()? {
        if *left == 0 {
            return None;
        }
        *left -= 1;
        if r.begin < r.end {
            out.push((r.begin, r.end));
        }
    }
    (!out.is_empty()).then(|| out.into())
}

/// The subprogram's `[DW_AT_low_pc, DW_AT_high_pc)`, when it has one range.
fn pc_range(
    dwarf: &gimli::Dwarf<Reader>,
    unit: &gimli::Unit<Reader>,
    entry: &gimli::DebuggingInformationEntry<Reader>,
) -> Option<(u64, u64)> {
    let low = dwarf
        .attr_address(unit, entry.attr_value(c::DW_AT_low_pc)?)
        .ok()??;
    let high = match entry.attr_value(c::DW_AT_high_pc)? {
        AttributeValue::Udata(n) => low.checked_add(n)?,
        v => dwarf.attr_address(unit, v).ok()??,
    };
    Some((low, high))
}

fn location_of(
    dwarf: &gimli::Dwarf<Reader>,
    unit: &gimli::Unit<Reader>,
    entry: &gimli::DebuggingInformationEntry<Reader>,
) -> Result<Location, Diag> {
    let Some(v) = entry.attr_value(c::DW_AT_location) else {
        return Ok(if let Some(v) = entry.attr_value(c::DW_AT_const_value) {
            Location::Constant(match v {
                AttributeValue::Sdata(n) => Some(n as u64),
                other => other.udata_value(),
            })
        } else {
            Location::None
        });
    };
    if let AttributeValue::Exprloc(e) = v {
        return Ok(Location::Expr(e.0.slice().to_vec()));
    }
    let Some(mut list) = dwarf
        .attr_locations(unit, v)
        .map_err(|e| gimli_error("DW_AT_location", e))?
    else {
        return Err(Diag::malformed(
            "DW_AT_location",
            "bad-form",
            "neither an expression nor a location list",
        ));
    };
    let mut entries = Vec::new();
    while let Some(e) = list.next().map_err(|e| gimli_error("location list", e))? {
        entries.push((e.range.begin, e.range.end, e.data.0.slice().to_vec()));
    }
    Ok(Location::List(entries))
}

/// The type's name and byte size, through typedefs and qualifiers.
fn type_of<'a>(
    dwarf: &gimli::Dwarf<Reader<'a>>,
    tus: &TypeUnits<'a>,
    unit: &gimli::Unit<Reader<'a>>,
    entry: &gimli::DebuggingInformationEntry<Reader<'a>>,
) -> (Option<String>, Option<u64>) {
    let Some((unit, ty)) =
        through_origin(unit, entry, c::DW_AT_type).and_then(|v| tus.follow(unit, v))
    else {
        return (None, None);
    };
    let name = type_name(dwarf, tus, unit, &ty, MAX_LINKS);
    (name, element_size(tus, unit, &ty, MAX_LINKS))
}

/// A type's name as C spells it where the DIE has none: `const int *`,
/// `int[4]`, `void *` (as llvm-dwarfdump prints them); a named DIE's own
/// name (a typedef, a base type, a struct, Rust's `&[u8]`).
fn type_name<'a>(
    dwarf: &gimli::Dwarf<Reader<'a>>,
    tus: &TypeUnits<'a>,
    unit: &gimli::Unit<Reader<'a>>,
    ty: &gimli::DebuggingInformationEntry<Reader<'a>>,
    links: usize,
) -> Option<String> {
    if let Some(s) = ty
        .attr_value(c::DW_AT_name)
        .and_then(|v| dwarf.attr_string(unit, v).ok())
    {
        return Some(String::from_utf8_lossy(s.slice()).into_owned());
    }
    let inner = || -> Option<String> {
        if links == 0 {
            return None;
        }
        match ty.attr_value(c::DW_AT_type) {
            Some(v) => {
                let (u, t) = tus.follow(unit, v)?;
                type_name(dwarf, tus, u, &t, links - 1)
            }
            None => Some("void".to_string()),
        }
    };
    // A qualifier of a pointer or reference is written after it, as C and
    // llvm-dwarfdump write it: `const char *const` (gcc's `this` of a
    // const member function), not `const const char *`.
    let qualify = |q: &str| -> Option<String> {
        let target = ty
            .attr_value(c::DW_AT_type)
            .and_then(|v| tus.follow(unit, v))
            .map(|(_, e)| e.tag());
        let after = matches!(
            target,
            Some(
                c::DW_TAG_pointer_type | c::DW_TAG_reference_type | c::DW_TAG_rvalue_reference_type
            )
        );
        let inner = inner()?;
        Some(if after {
            format!("{inner}{q}")
        } else {
            format!("{q} {inner}")
        })
    };
    Some(match ty.tag() {
        c::DW_TAG_pointer_type => format!("{} *", inner()?),
        c::DW_TAG_reference_type => format!("{} &", inner()?),
        c::DW_TAG_rvalue_reference_type => format!("{} &&", inner()?),
        c::DW_TAG_const_type => qualify("const")?,
        c::DW_TAG_volatile_type => qualify("volatile")?,
        c::DW_TAG_restrict_type => format!("{} restrict", inner()?),
        c::DW_TAG_atomic_type => format!("_Atomic {}", inner()?),
        c::DW_TAG_array_type => {
            let dims: String = dimensions(unit, ty)?
                .into_iter()
                .map(|n| n.map_or("[]".to_string(), |n| format!("[{n}]")))
                .collect();
            format!("{}{dims}", inner()?)
        }
        _ => return None,
    })
}

/// The type a typedef or qualifier (`const`, `volatile`, `restrict`,
/// `_Atomic`) names; `None` for any other DIE.
fn qualified<'a, 'u>(
    tus: &'u TypeUnits<'a>,
    unit: &'u gimli::Unit<Reader<'a>>,
    e: &gimli::DebuggingInformationEntry<Reader<'a>>,
) -> Option<(&'u gimli::Unit<Reader<'a>>, Die<'a>)> {
    match e.tag() {
        c::DW_TAG_typedef
        | c::DW_TAG_const_type
        | c::DW_TAG_volatile_type
        | c::DW_TAG_restrict_type
        | c::DW_TAG_atomic_type => tus.follow(unit, e.attr_value(c::DW_AT_type)?),
        _ => None,
    }
}

type Die<'a> = gimli::DebuggingInformationEntry<Reader<'a>>;

/// The type units of a file (DWARF 5's in `.debug_info`, DWARF 4's in
/// `.debug_types`, a `.dwo`'s split ones) by signature: what
/// `DW_FORM_ref_sig8` names (`-fdebug-types-section`). Without them a
/// variable whose type is in one had no type name and no size, so its
/// value could not be read at a pc.
pub(crate) struct TypeUnits<'a> {
    by_signature: HashMap<u64, (gimli::Unit<Reader<'a>>, gimli::UnitOffset)>,
}

impl<'a> TypeUnits<'a> {
    fn new(dwarf: &gimli::Dwarf<Reader<'a>>) -> TypeUnits<'a> {
        let mut by_signature = HashMap::new();
        let mut add = |h: gimli::UnitHeader<Reader<'a>>| {
            if let gimli::UnitType::Type {
                type_signature,
                type_offset,
            }
            | gimli::UnitType::SplitType {
                type_signature,
                type_offset,
            } = h.type_()
            {
                if let Ok(u) = dwarf.unit(h) {
                    by_signature.insert(type_signature.0, (u, type_offset));
                }
            }
        };
        let mut units = dwarf.units();
        while let Ok(Some(h)) = units.next() {
            add(h);
        }
        let mut types = dwarf.type_units();
        while let Ok(Some(h)) = types.next() {
            add(h);
        }
        TypeUnits { by_signature }
    }

    /// The DIE a reference names (in `unit`, or in a type unit by its
    /// signature) and its unit; a declaration that names its definition's
    /// type unit (`DW_AT_signature`, as clang leaves one in the compile
    /// unit) is that definition.
    fn follow<'u>(
        &'u self,
        unit: &'u gimli::Unit<Reader<'a>>,
        v: AttributeValue<Reader<'a>>,
    ) -> Option<(&'u gimli::Unit<Reader<'a>>, Die<'a>)> {
        let by_signature = |sig: gimli::DebugTypeSignature| {
            let (u, at) = self.by_signature.get(&sig.0)?;
            Some((u, u.entry(*at).ok()?))
        };
        let (u, e) = match v {
            AttributeValue::UnitRef(o) => (unit, unit.entry(o).ok()?),
            AttributeValue::DebugTypesRef(sig) => by_signature(sig)?,
            _ => return None,
        };
        match e.attr_value(c::DW_AT_signature) {
            Some(AttributeValue::DebugTypesRef(sig)) => by_signature(sig).or(Some((u, e))),
            _ => Some((u, e)),
        }
    }
}
