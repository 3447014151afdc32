import Foundation

/// A usage error: printed as `Error: ...`, then the usage line, exit 2.
struct UsageError: Error {
    let message: String
}

/// The arguments of one subcommand: positional values and `--long-flag [value]` options.
/// `--flag=value` and `--flag value` are both accepted; `--` ends the options.
struct CommandLineArguments {
    private(set) var positional: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []
    /// The options given, by name, in order.
    private(set) var given: [String] = []

    /// `valued` options take a value; `switches` do not; `aliases` maps other spellings to their names. Anything
    /// else starting with `-` is an error, and so is an option where a value should be (`--events --raw`:
    /// `--events=--raw` names such a file).
    init(_ arguments: [String], valued: Set<String>, switches: Set<String>, aliases: [String: String] = [:]) throws {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                positional.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            name = aliases[name] ?? name
            if valued.contains(name) || switches.contains(name) {
                given.append(name)
            }
            if valued.contains(name) {
                if let inlineValue {
                    values[name] = inlineValue
                } else if index < arguments.count {
                    let next = arguments[index]
                    let isOption = valued.contains(next) || switches.contains(next) || aliases[next] != nil
                        || next.hasPrefix("--") && next.count > 2
                    if isOption {
                        throw UsageError(message: "\(name) needs a value, got option \(next) (\(name)=\(next) if "
                            + "that is the value)")
                    }
                    values[name] = next
                    index += 1
                } else {
                    throw UsageError(message: "\(name) needs a value")
                }
            } else if switches.contains(name), inlineValue == nil {
                flags.insert(name)
            } else {
                throw UsageError(message: "unknown option '\(name)'")
            }
        }
    }

    func value(_ name: String) -> String? { values[name] }

    func has(_ name: String) -> Bool { flags.contains(name) }

    /// The value of `name` as a number `isValid` accepts, nil when the option is not given; anything else is the
    /// usage error `NAME takes TAKES, got 'VALUE'`.
    func number<Number: LosslessStringConvertible>(_ name: String, takes: String, isValid: (Number) -> Bool) throws
        -> Number?
    {
        guard let text = values[name] else { return nil }
        guard let number = Number(text), isValid(number) else {
            throw UsageError(message: "\(name) takes \(takes), got '\(text)'")
        }
        return number
    }

    /// A comma-separated list value, trimmed, without empty entries.
    func list(_ name: String) -> [String]? {
        values[name].map { value in
            value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }
}
