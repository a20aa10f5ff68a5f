// Package presentation is the card vocabulary every tool uses to say how its
// calls and results want to be shown. It is provider-neutral: no protocol type
// appears here, and the editor bridge maps cards to what each client renders
// natively.
//
// A tool's presenters are pure functions of its arguments (and result) that
// return a card:
//
//	func presentWrite(args writeArgs) presentation.CallView {
//		return presentation.DiffCallView{
//			Title:     "Write " + args.FilePath,
//			Diffs:     []presentation.FileDiff{presentation.NewFileDiff(args.FilePath, args.Content)},
//			Locations: []presentation.FileLocation{{Path: args.FilePath}},
//		}
//	}
//
// The card unions (CallView, ResultView, ContentBlock) are closed: each is a
// sealed interface that only this package implements, so a consumer's type
// switch can list every case and fail loudly in its default branch.
package presentation
