package dev.llmload.cli;

/** Entry point of the llmload command line. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.out.println("llmload");
    }
}
