# bash completion for gpuerr. Installed to share/bash-completion/completions/gpuerr.
_gpuerr() {
  local cur prev words cword
  _init_completion || return
  local commands="lookup show list env faq stats doctor index lint eval triage redact export"
  local global="--index --json --help --version"
  case "$prev" in
    --index|--kb|--out) _filedir -d; return ;;
    --format) COMPREPLY=($(compgen -W "html docset" -- "$cur")); return ;;
    --category) COMPREPLY=($(compgen -W "application configuration hardware driver resource framework communication" -- "$cur")); return ;;
    show) COMPREPLY=($(compgen -W "$(gpuerr list 2>/dev/null | cut -d' ' -f1)" -- "$cur")); return ;;
  esac
  local command="" w
  for w in "${words[@]:1:cword-1}"; do
    case " $commands " in *" $w "*) command=$w; break ;; esac
  done
  case "$command" in
    "") COMPREPLY=($(compgen -W "$commands $global --limit --brief --explain" -- "$cur")) ;;
    lookup) COMPREPLY=($(compgen -W "--limit --brief --explain $global" -- "$cur")) ;;
    list) COMPREPLY=($(compgen -W "--category $global" -- "$cur")) ;;
    index) COMPREPLY=($(compgen -W "--kb --out --help" -- "$cur")) ;;
    lint) COMPREPLY=($(compgen -W "--kb --help" -- "$cur")) ;;
    triage) COMPREPLY=($(compgen -f -W "--checkpoint-pattern --redact --year --boot-time $global" -- "$cur")) ;;
    redact) COMPREPLY=($(compgen -f -- "$cur")) ;;
    export) COMPREPLY=($(compgen -W "--out --format --base-url $global" -- "$cur")) ;;
    show) COMPREPLY=($(compgen -W "--site-url $global" -- "$cur")) ;;
    eval) COMPREPLY=($(compgen -f -W "--misses $global" -- "$cur")) ;;
    *) COMPREPLY=($(compgen -W "$global" -- "$cur")) ;;
  esac
}
complete -F _gpuerr gpuerr
