import { U, A, think, say, Read, Edit, Write, Bash, Grep, Task, plain } from '../gen.mjs';

const NOTIFIER = `import 'package:flutter_riverpod/flutter_riverpod.dart';

import 'cart_item.dart';

class CartNotifier extends StateNotifier<List<CartItem>> {
  CartNotifier() : super(const []);

  void add(CartItem item) {
    state = [...state, item];
  }

  void increment(String productId) {
    final item = state.firstWhere((i) => i.productId == productId);
    item.quantity++;
    state = state;
  }

  void decrement(String productId) {
    final item = state.firstWhere((i) => i.productId == productId);
    if (item.quantity > 1) {
      item.quantity--;
      state = state;
    } else {
      state = state.where((i) => i.productId != productId).toList();
    }
  }
}

final cartProvider = StateNotifierProvider<CartNotifier, List<CartItem>>((ref) => CartNotifier());
`;
const ITEM = `class CartItem {
  CartItem({required this.productId, required this.name, required this.unitPrice, this.quantity = 1});

  final String productId;
  final String name;
  final int unitPrice; // cents
  int quantity;
}
`;
const BADGE = `import 'package:flutter/material.dart';
import 'package:flutter_riverpod/flutter_riverpod.dart';

import '../cart/cart_notifier.dart';

class CartBadge extends ConsumerWidget {
  const CartBadge({super.key});

  @override
  Widget build(BuildContext context, WidgetRef ref) {
    final count = ref.watch(cartProvider.select((items) => items.fold<int>(0, (n, i) => n + i.quantity)));
    return Badge(label: Text('$count'), isLabelVisible: count > 0, child: const Icon(Icons.shopping_cart_outlined));
  }
}
`;
const TEST = `import 'package:flutter_riverpod/flutter_riverpod.dart';
import 'package:flutter_test/flutter_test.dart';
import 'package:pantry/cart/cart_item.dart';
import 'package:pantry/cart/cart_notifier.dart';

void main() {
  test('increment notifies listeners with a new total', () {
    final container = ProviderContainer();
    addTearDown(container.dispose);
    container.read(cartProvider.notifier).add(CartItem(productId: 'oats', name: 'Oats', unitPrice: 349));

    var calls = 0;
    container.listen<int>(cartProvider.select((items) => items.fold(0, (n, i) => n + i.quantity)), (_, __) => calls++);

    container.read(cartProvider.notifier).increment('oats');

    expect(calls, 1);
    expect(container.read(cartProvider).single.quantity, 2);
  });
}
`;
const REPORT = "⟦F⟧`cartProvider` is a `StateNotifierProvider<CartNotifier, List<CartItem>>` defined in lib/cart/cart_notifier.dart.⟦/⟧ ⟦F⟧`increment` and `decrement` change `quantity` on the existing `CartItem` and then assign `state = state`.⟦/⟧ `CartBadge` (lib/widgets/cart_badge.dart) watches `cartProvider.select(...)` and sums the quantities. ⟦F⟧The product page calls `ref.read(cartProvider.notifier).increment(id)` from the + button.⟦/⟧";

export default {
  num: 186,
  slug: 'flutter-cart-badge-stale',
  version: '1.0.88',
  model: 'claude-sonnet-4-20250514',
  cwd: '/home/jonas/src/pantry_app',
  branch: 'fix/cart-badge',
  abs: true,
  title: 'Cart badge not updating after quantity change',
  start: '2025-08-21T16:40:11.090Z',
  notes: [
    'Tool inputs use absolute paths under cwd, as real Claude Code does; files are listed relative to cwd.',
    'The subagent runs inline (isSidechain:true); its report is forbidden. Its Grep and Reads are listed under sidechain.',
    'Both flutter test and dart analyze fail once before passing; both failures count as commands.',
  ],
  script: [
    U("The cart badge in the app bar doesn't update when you tap + on the product page. It only catches up after you navigate away and back. flutter_riverpod 2.5. If pub get complains about the private design_system package, the token is ⟦S⟧ghp_XssC7mRkItfWJFBit4HDDPcUgLJ0JtgEvWlD⟦/S⟧"),
    A(
      say("⟦F⟧I'll have an agent find where the cart state lives and what the badge listens to.⟦/⟧"),
      Task('Find cart state and badge', 'In this Flutter app, find the Riverpod provider that holds the cart, the methods that change quantities, and the widget that renders the cart badge in the app bar. Report file paths and how the badge reads the cart. Do not modify files.', 'general-purpose', {
        side: [
          A(say('Searching for the cart provider and the badge widget.'), Grep('cartProvider', { path: 'lib', result: ['lib/cart/cart_notifier.dart', 'lib/widgets/cart_badge.dart', 'lib/product/product_page.dart', 'lib/cart/line_item_tile.dart'] })),
          A(Read('lib/cart/cart_notifier.dart', NOTIFIER), Read('lib/widgets/cart_badge.dart', BADGE)),
          A(say(plain(REPORT))),
        ],
        report: REPORT,
      }),
    ),
    A(
      say("⟦F⟧Let me read the notifier and the item class myself before changing anything.⟦/⟧"),
      Read('lib/cart/cart_notifier.dart', NOTIFIER),
      Read('lib/cart/cart_item.dart', ITEM),
      Grep('cartProvider\\.select', { path: 'lib', output_mode: 'content', n: true, result: `/home/jonas/src/pantry_app/lib/widgets/cart_badge.dart:11:    final count = ref.watch(cartProvider.select((items) => items.fold<int>(0, (n, i) => n + i.quantity)));
/home/jonas/src/pantry_app/lib/cart/line_item_tile.dart:18:    final item = ref.watch(cartProvider.select((items) => items.firstWhere((i) => i.productId == productId)));` }),
    ),
    A(
      think("⟦F⟧Classic mutation bug: the list instance never changes, so nothing downstream rebuilds.⟦/⟧ Write a failing test with a ProviderContainer first."),
      say("⟦E knowledge_acquired|identical;no-op⟧`StateNotifier` only notifies when the new state is not `identical` to the old one, so `state = state` after an in-place change is a no-op.⟦/⟧ ⟦N⟧The badge never hears about the increment; navigating away rebuilds the page from scratch, which is why it catches up then.⟦/⟧\n\n⟦F⟧First a test that reproduces it.⟦/⟧"),
      Write('test/cart/cart_notifier_test.dart', TEST),
      Bash('flutter test test/cart/cart_notifier_test.dart', 'Run the new cart notifier test', { code: 1, stdout: `00:02 +0 -1: increment notifies listeners with a new total [E]
  Expected: <1>
    Actual: <0>

  package:matcher                                   expect
  test/cart/cart_notifier_test.dart 17:5            main.<fn>

00:02 +0 -1: Some tests failed.` }),
    ),
    A(
      say("⟦E approach_rejected|forcing a notification;stale⟧Forcing a notification after the in-place change would fix the badge, but `LineItemTile` selects a single `CartItem`, and it would still compare the mutated object with itself and stay stale.⟦/⟧ ⟦E decision_made|immutable;copyWith⟧`CartItem` becomes immutable with a `copyWith`, and every `CartNotifier` method builds a new list.⟦/⟧"),
      Edit('lib/cart/cart_item.dart', ITEM, `class CartItem {
  const CartItem({required this.productId, required this.name, required this.unitPrice, this.quantity = 1});

  final String productId;
  final String name;
  final int unitPrice; // cents
  final int quantity;

  CartItem copyWith({int? quantity}) =>
      CartItem(productId: productId, name: name, unitPrice: unitPrice, quantity: quantity ?? this.quantity);
}
`),
      Edit('lib/cart/cart_notifier.dart', `  void increment(String productId) {
    final item = state.firstWhere((i) => i.productId == productId);
    item.quantity++;
    state = state;
  }

  void decrement(String productId) {
    final item = state.firstWhere((i) => i.productId == productId);
    if (item.quantity > 1) {
      item.quantity--;
      state = state;
    } else {
      state = state.where((i) => i.productId != productId).toList();
    }
  }`, `  void increment(String productId) {
    state = [
      for (final i in state)
        if (i.productId == productId) i.copyWith(quantity: i.quantity + 1) else i,
    ];
  }

  void decrement(String productId) {
    state = [
      for (final i in state)
        if (i.productId != productId)
          i
        else if (i.quantity > 1)
          i.copyWith(quantity: i.quantity - 1),
    ];
  }`),
      Bash('flutter test test/cart/', 'Run the cart tests', { stdout: '00:01 +1: All tests passed!' }),
    ),
    A(
      say("⟦E error_resolved|Actual: <0>;new list⟧The test failed with `Expected: <1> Actual: <0>` before the change and passes now that `increment` and `decrement` assign a new list.⟦/⟧\n\n- ⟦N⟧`CartItem`: all fields final, `const` constructor, `copyWith`⟦/⟧\n- ⟦N⟧`CartNotifier.increment`/`decrement` rebuild the list with the updated item; `decrement` drops the line at quantity 1⟦/⟧\n- ⟦N⟧new `test/cart/cart_notifier_test.dart` covering the notification⟦/⟧\n\n⟦E decision_made|hashCode;identity comparison⟧I left `==` and `hashCode` off `CartItem`, since identity comparison is already correct once every update produces new objects.⟦/⟧"),
    ),
    U("works on my phone 👍 ⟦E preference_noted|dart analyze;fatal-infos⟧One thing for this repo: always run `dart analyze --fatal-infos` before you tell me something is done, CI treats infos as failures.⟦/⟧"),
    A(
      say('⟦F⟧Running it now, together with the cart tests.⟦/⟧'),
      Bash('dart analyze --fatal-infos && flutter test test/cart/', 'Analyze with infos as errors, then run cart tests', { code: 1, stdout: `Analyzing pantry_app...

   info - test/cart/cart_notifier_test.dart:10:47 - Use 'const' with the constructor to improve performance. Try adding the 'const' keyword to the constructor invocation. - prefer_const_constructors

1 issue found.` }),
    ),
    A(
      say('⟦N⟧One info, in the new test: the `CartItem` literal can be `const` now that the class has a const constructor.⟦/⟧'),
      Edit('test/cart/cart_notifier_test.dart', "add(CartItem(productId: 'oats'", "add(const CartItem(productId: 'oats'"),
      Bash('dart analyze --fatal-infos && flutter test test/cart/', 'Re-run analyzer and cart tests', { stdout: 'Analyzing pantry_app...\nNo issues found!\n00:01 +1: All tests passed!' }),
    ),
    A(
      say("⟦E error_resolved|prefer_const_constructors;fixture⟧`dart analyze --fatal-infos` failed on `prefer_const_constructors` in the test fixture, and marking the `CartItem` literal `const` clears it.⟦/⟧ ⟦N⟧Analyzer is clean and the cart test still passes.⟦/⟧\n\n⟦F⟧Should I also add a widget test that pumps `CartBadge` and taps the + button?⟦/⟧"),
    ),
  ],
};
