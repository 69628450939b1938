// Plays DavidNHill's Minesweeper solver on layouts given by minegraph, one game a line.
//
// This file is minegraph's own driver; it only calls the peer's public classes (Solver,
// SettingsFactory, GameStateModel, Action), which are not part of minegraph. Compile it
// against a compiled copy of the peer:  javac -cp PEER_CLASSES -d OUT HillBench.java
//
// Input (standard input), one game a line, cells as row-major indices (row * cols + col):
//     seed rows cols first mine mine mine ...
// Output (standard output), one JSON object a line, in input order:
//     {"seed": S, "won": true|false, "seconds": T,
//      "guesses": [[cell, "probability safe", "method", cells uncovered before], ...]}
// Every move that is not a certainty is a guess; the first click is one (method BOOK).
import java.math.BigDecimal;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import minesweeper.gamestate.GameStateModel;
import minesweeper.settings.GameSettings;
import minesweeper.solver.Solver;
import minesweeper.solver.settings.PlayStyle;
import minesweeper.solver.settings.SettingsFactory;
import minesweeper.solver.settings.SettingsFactory.Setting;
import minesweeper.solver.settings.SolverSettings;
import minesweeper.solver.utility.BinomialCache;
import minesweeper.structure.Action;
import minesweeper.structure.Location;

public class HillBench {

    /** A game whose mines are given, not drawn: the peer's game states draw their own. */
    static final class GivenLayout extends GameStateModel {
        private static final int[] DR = {-1, -1, -1, 0, 0, 1, 1, 1};
        private static final int[] DC = {-1, 0, 1, -1, 1, -1, 0, 1};
        private final int rows, cols;
        private final boolean[] mine;
        private final int[] number;
        private final Location first;

        GivenLayout(long seed, int rows, int cols, int firstCell, int[] mines) {
            super(GameSettings.create(cols, rows, mines.length), seed);
            this.rows = rows;
            this.cols = cols;
            this.mine = new boolean[rows * cols];
            this.number = new int[rows * cols];
            for (int m : mines) {
                mine[m] = true;
            }
            for (int cell = 0; cell < rows * cols; cell++) {
                int r = cell / cols, c = cell % cols, n = 0;
                for (int k = 0; k < 8; k++) {
                    int rr = r + DR[k], cc = c + DC[k];
                    if (rr >= 0 && rr < rows && cc >= 0 && cc < cols && mine[rr * cols + cc]) {
                        n++;
                    }
                }
                number[cell] = mine[cell] ? GameStateModel.MINE : n;
            }
            this.first = new Location(firstCell % cols, firstCell / cols);
        }

        @Override
        public Location getStartLocation() {
            return first;
        }

        @Override
        protected void startHandle(Location m) {
            if (mine[m.y * cols + m.x]) {
                throw new IllegalStateException("the layout has a mine under the first click " + m);
            }
        }

        @Override
        protected void placeFlagHandle(Location m) {
        }

        @Override
        protected int queryHandle(int x, int y) {
            return number[y * cols + x];
        }

        @Override
        protected boolean clearSquareHitMine(Location m) {
            int cell = m.y * cols + m.x;
            if (number[cell] == 0) {
                explode(m);
            }
            return mine[cell];
        }

        @Override
        protected boolean clearSurroundHandle(Location m) {
            for (int k = 0; k < 8; k++) {
                int x = m.x + DC[k], y = m.y + DR[k];
                if (x >= 0 && x < cols && y >= 0 && y < rows) {
                    clearSquare(new Location(x, y));
                }
            }
            return true;
        }

        @Override
        public boolean supports3BV() {
            return false;
        }

        int uncovered() {
            int n = 0;
            for (int y = 0; y < rows; y++) {
                for (int x = 0; x < cols; x++) {
                    int q = query(new Location(x, y));
                    if (q >= 0) {
                        n++;
                    }
                }
            }
            return n;
        }
    }

    public static void main(String[] args) throws Exception {
        Setting setting = args.length > 0 ? Setting.valueOf(args[0]) : Setting.SMALL_ANALYSIS;
        SolverSettings settings = SettingsFactory.GetSettings(setting);
        settings.setSingleThread(true);
        BinomialCache cache = new BinomialCache(5000, Solver.BINOMIAL_CACHE_LIMIT, Solver.binomialEngine);
        // The peer prints diagnostics on standard output; keep it for our own lines.
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, "UTF-8");
        System.setOut(System.err);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        String line;
        while ((line = in.readLine()) != null) {
            line = line.trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\\s+");
            long seed = Long.parseLong(f[0]);
            int rows = Integer.parseInt(f[1]), cols = Integer.parseInt(f[2]);
            int firstCell = Integer.parseInt(f[3]);
            int[] mines = new int[f.length - 4];
            for (int i = 0; i < mines.length; i++) {
                mines[i] = Integer.parseInt(f[4 + i]);
            }
            out.println(play(seed, rows, cols, firstCell, mines, settings, cache));
        }
    }

    static String play(long seed, int rows, int cols, int firstCell, int[] mines,
                       SolverSettings settings, BinomialCache cache) {
        GivenLayout game = new GivenLayout(seed, rows, cols, firstCell, mines);
        Solver solver = new Solver(game, settings, false);
        solver.setPlayStyle(PlayStyle.NO_FLAG);
        solver.setBinomialCache(cache);
        List<String> guesses = new ArrayList<>();
        long start = System.nanoTime();
        String error = null;
        play:
        for (int round = 0; round < 5000; round++) {
            Action[] moves;
            try {
                solver.start();
                moves = solver.getResult();
            } catch (RuntimeException e) {
                error = e.toString();
                break;
            }
            if (moves.length == 0) {
                error = "no moves";
                break;
            }
            for (Action a : moves) {
                if (a.getAction() != Action.CLEAR) {
                    continue;   // no flags in this style; chords are not asked for
                }
                if (!a.isCertainty()) {
                    BigDecimal safe = a.getBigProb();
                    guesses.add("[" + (a.y * cols + a.x) + ", \"" + safe.toPlainString() + "\", \""
                            + a.getMoveMethod().name() + "\", " + game.uncovered() + "]");
                }
                game.doAction(a);
                int state = game.getGameState();
                if (state == GameStateModel.WON || state == GameStateModel.LOST) {
                    break play;
                }
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        StringBuilder sb = new StringBuilder();
        sb.append("{\"seed\": ").append(seed)
          .append(", \"won\": ").append(game.getGameState() == GameStateModel.WON)
          .append(", \"seconds\": ").append(String.format("%.6f", seconds))
          .append(", \"guesses\": [").append(String.join(", ", guesses)).append("]");
        if (error != null) {
            sb.append(", \"error\": \"").append(error.replace("\\", "\\\\").replace("\"", "'")).append("\"");
        }
        return sb.append("}").toString();
    }
}
