//! What a report is made of: a sweep folder (`summary.csv` in it, a merged folder among them) is one
//! section; a folder of sweep folders (a family, whose members sit in folders of their own, or a
//! results folder such as the atlas) is one section a member, in name order.

use super::ReportError;
use crate::experiment::SUMMARY;
use std::path::{Path, PathBuf};

/// One sweep folder of a report: its name (the folder's) and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberDir {
    /// The folder's name (the member's, in a family).
    pub name: String,
    /// The folder.
    pub dir: PathBuf,
}

/// The sweep folders of `dir`: `dir` itself when it holds a `summary.csv`, else each folder under
/// it that does (one level down, in name order). Refuses a path that is not a folder, and a folder
/// with neither.
pub fn sweep_folders(dir: &Path) -> Result<(bool, Vec<MemberDir>), ReportError> {
    if !dir.is_dir() {
        return Err(ReportError::NoFolder(dir.into()));
    }
    let name = |p: &Path| {
        std::fs::canonicalize(p)
            .ok()
            .and_then(|c| c.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| p.display().to_string())
    };
    if dir.join(SUMMARY).is_file() {
        return Ok((
            false,
            vec![MemberDir {
                name: name(dir),
                dir: dir.into(),
            }],
        ));
    }
    let entries = std::fs::read_dir(dir).map_err(|cause| ReportError::Io {
        path: dir.into(),
        cause,
    })?;
    let mut members: Vec<MemberDir> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir() && p.join(SUMMARY).is_file())
        .map(|p| MemberDir {
            name: name(&p),
            dir: p,
        })
        .collect();
    if members.is_empty() {
        return Err(ReportError::NotSweep(dir.into()));
    }
    members.sort_by(|a, b| a.name.cmp(&b.name));
    Ok((true, members))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sweep_is_one_member_a_family_its_folders_in_name_order() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        for m in ["zebra", "camel"] {
            std::fs::create_dir(root.join(m)).unwrap();
            std::fs::write(root.join(m).join(SUMMARY), "rows\n").unwrap();
        }
        std::fs::create_dir(root.join("notes")).unwrap();
        let (family, members) = sweep_folders(root).unwrap();
        assert!(family);
        let names: Vec<&str> = members.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["camel", "zebra"]);
        let (family, one) = sweep_folders(&root.join("camel")).unwrap();
        assert!(!family);
        assert_eq!(one[0].name, "camel");
        let e = sweep_folders(&root.join("notes")).unwrap_err().to_string();
        assert!(e.contains("not a sweep folder"), "{e}");
        let e = sweep_folders(&root.join("nothing"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("no such folder"), "{e}");
    }
}
